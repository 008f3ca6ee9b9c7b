export declare const DEFAULT_HOST: string;
export declare function configureAnalytics(
  dist: string,
  settings: { key: string; host?: string },
  options?: { precompress?: boolean },
): number;
