import { DownloadButtonContent } from "../../../components/download/DownloadButton";
import { mountIsland, type IslandProps } from "./mount";

export function mount(element: Element, props: IslandProps): void {
  mountIsland(element, <DownloadButtonContent {...props} />);
}
