export function deferModulePreloads(html: string): string;
export function prerenderedPages(dir: string): string[];
export function deferPreloadsIn(dir: string): number;
