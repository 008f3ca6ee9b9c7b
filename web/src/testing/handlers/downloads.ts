//! The download chooser's release (docs/api.md `GET /api/downloads`): the development default, this
//! server's own /downloads.

import { HttpResponse } from "msw";
import { type MockRoute } from "./common";

export const DOWNLOADS = {
  version: "v1.0.0",
  mac: {
    arm64: "http://localhost:8080/downloads/v1.0.0/Closewise-1.0.0-arm64.dmg",
    x64: "http://localhost:8080/downloads/v1.0.0/Closewise-1.0.0-x64.dmg",
  },
};

export const downloadRoutes: MockRoute[] = [
  {
    method: "get",
    path: "/api/downloads",
    resolver: () => HttpResponse.json(DOWNLOADS),
  },
];
