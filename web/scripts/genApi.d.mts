export declare const documentPath: string;
export declare const outputPath: string;
export declare function generate(document?: unknown): Promise<string>;
