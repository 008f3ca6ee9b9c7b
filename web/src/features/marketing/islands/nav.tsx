import { NavBarContent } from "../../../components/layout/NavBar";
import { mountIsland, type IslandProps } from "./mount";

export function mount(element: Element, props: IslandProps): void {
  mountIsland(element, <NavBarContent {...props} />);
}
