import type { MacArch } from "../../lib/api/types";

interface UADataLike {
  platform?: string;
  getHighEntropyValues?: (hints: string[]) => Promise<{ architecture?: string; platform?: string }>;
}

/**
 * The likely Mac chip, where the browser can tell: Chromium's client hints give the architecture;
 * otherwise a WebGL renderer naming "Apple M…" means Apple Silicon. Null when unknown.
 */
export async function detectMacChip(nav: Navigator = navigator): Promise<MacArch | null> {
  const uaData = (nav as Navigator & { userAgentData?: UADataLike }).userAgentData;
  if (uaData?.getHighEntropyValues) {
    try {
      const { architecture, platform } = await uaData.getHighEntropyValues(["architecture", "platform"]);
      if (platform && platform !== "macOS") return null;
      if (architecture === "arm") return "arm64";
      if (architecture === "x86") return "x64";
    } catch {
      // fall through to the renderer check
    }
  }
  if (!/Mac/i.test(nav.userAgent) || /iPhone|iPad/i.test(nav.userAgent)) return null;
  try {
    const gl = document.createElement("canvas").getContext("webgl");
    const ext = gl?.getExtension("WEBGL_debug_renderer_info");
    const renderer = gl && ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : "";
    if (/Apple M\d/i.test(renderer)) return "arm64";
    if (/Intel|AMD|Radeon/i.test(renderer)) return "x64";
  } catch {
    // no WebGL: unknown
  }
  return null;
}
