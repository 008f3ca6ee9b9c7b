import { config } from "../config";

export function pageMeta(title: string, description: string, options: { index?: boolean } = {}) {
  return [
    { title: `${title} | ${config.productName}` },
    { name: "description", content: description },
    ...(options.index === false ? [{ name: "robots", content: "noindex" }] : []),
  ];
}
