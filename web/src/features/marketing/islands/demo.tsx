import { DemoSectionContent } from "../demo/DemoSection";
import { mountIsland } from "./mount";

export function mount(element: Element): void {
  mountIsland(element, <DemoSectionContent />);
}
