export function toIslandsPage(html: string, entry: string): string;
export function islandsIn(dir: string): { pages: number; entry: string };
