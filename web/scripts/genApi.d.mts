export declare const documentPath: string;
export declare const outputDir: string;
export declare const MAX_LINES: number;
export declare function generate(document?: unknown): Promise<Map<string, string>>;
export declare function current(): Map<string, string>;
export declare function differences(fresh: Map<string, string>, existing?: Map<string, string>): string[];
