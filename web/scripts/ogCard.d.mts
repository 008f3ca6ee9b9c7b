export declare const OG_CARD: { path: string; width: number; height: number };
export declare function ogCardPng(size?: { width: number; height: number }): Buffer;
export declare function writeOgCard(dir: string): string;
