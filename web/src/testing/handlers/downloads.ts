//! The download chooser's release (docs/api.md `GET /api/downloads`): the development default.

import { json, route } from "./common";

const dmg = (arch: string) => `http://localhost:8080/downloads/v1.0.0/Closewise-1.0.0-${arch}.dmg`;
export const DOWNLOADS = { version: "v1.0.0", mac: { arm64: dmg("arm64"), x64: dmg("x64") } };

export const downloadRoutes = [route("get", "/api/downloads", () => json(DOWNLOADS))];
