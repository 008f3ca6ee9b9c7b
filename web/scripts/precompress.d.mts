export declare function precompress(dir: string): { files: number; before: number; after: number };
export declare function precompressFile(path: string): { before: number; after: number } | null;
