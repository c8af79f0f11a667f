/**
 * Where the panel sits: beside the map on a wide screen, as a sheet over the bottom of the full-width map on a
 * narrow one (a phone, a tablet held upright), where it starts collapsed to its header. Either can be collapsed
 * and expanded with the header's button. The map is told which of its edges the panel covers, so that fitting the
 * entities keeps them in the part of the map that shows.
 */

/** Widths below this get the sheet (the side panel would leave the map less than 60 % of a 768 px screen). */
export const NARROW_MAX_WIDTH_PX = 899;

export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export class Layout {
  private readonly panel: HTMLElement;
  private readonly toggleButton: HTMLButtonElement;
  private readonly narrowQuery = window.matchMedia(`(max-width: ${NARROW_MAX_WIDTH_PX}px)`);

  /** @param changed - called after the panel was collapsed, expanded or moved (the map's free area changed). */
  constructor(private readonly changed: () => void) {
    this.panel = document.getElementById('panel')!;
    this.toggleButton = document.getElementById('panel-toggle') as HTMLButtonElement;
    this.toggleButton.addEventListener('click', () => this.setCollapsed(!this.collapsed));
    this.narrowQuery.addEventListener('change', () => this.setCollapsed(this.narrow));
    this.setCollapsed(this.narrow);
    new ResizeObserver(() => this.updateSheetHeight()).observe(this.panel);
  }

  get narrow(): boolean {
    return this.narrowQuery.matches;
  }

  get collapsed(): boolean {
    return document.body.classList.contains('panel-collapsed');
  }

  setCollapsed(collapsed: boolean): void {
    document.body.classList.toggle('panel-collapsed', collapsed);
    this.toggleButton.setAttribute('aria-expanded', String(!collapsed));
    this.toggleButton.title = collapsed ? 'Show the panel' : 'Hide the panel';
    this.updateSheetHeight();
    this.changed();
  }

  /** Pixels of each edge of the map's container that the panel covers. */
  coveredInsets(): Insets {
    const map = document.getElementById('map')!.getBoundingClientRect();
    const panel = this.panel.getBoundingClientRect();
    const insets = { top: 0, right: 0, bottom: 0, left: 0 };
    const overlapsX = panel.left < map.right && panel.right > map.left;
    const overlapsY = panel.top < map.bottom && panel.bottom > map.top;
    if (!overlapsX || !overlapsY) return insets;
    // The panel hugs one edge: the bottom (sheet) or the right (collapsed header card, beside nothing else).
    if (panel.bottom >= map.bottom - 1 && panel.width >= map.width / 2) insets.bottom = map.bottom - panel.top;
    else if (panel.right >= map.right - 1) insets.top = panel.bottom - map.top;
    return insets;
  }

  /** The sheet's height as a CSS variable, so that the map's bottom controls stay above it. */
  private updateSheetHeight(): void {
    const covered = this.narrow ? this.panel.getBoundingClientRect().height : 0;
    document.body.style.setProperty('--sheet-height', `${Math.round(covered)}px`);
  }
}
