/**
 * Land and sea over an area, as a grid of cells rasterised from land polygons (longitude, latitude; outer rings
 * and holes, as GeoJSON and the page's Natural Earth cells give them): where the load generator may put a tank
 * and where a ship. Pure: the polygons come from the caller.
 */

/** A polygon: its rings (the first outer, the rest holes), each a list of [longitude°, latitude°]. */
export type LandPolygon = ReadonlyArray<ReadonlyArray<ArrayLike<number>>>;

/** An area in degrees. */
export interface DegreeBox {
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
}

export class LandMask {
  /** 1 where the cell's centre is on land, row by row from the south. */
  private readonly cells: Uint8Array;
  private readonly columns: number;
  private readonly rows: number;
  private readonly dLon: number;
  private readonly dLat: number;

  /**
   * @param polygons - land, each polygon filled by the even-odd rule (so holes are sea), together their union.
   * @param box - the area covered; outside it everything is sea.
   * @param cellDeg - the size of a cell in latitude; cells are as wide in metres at the area's middle.
   */
  constructor(
    polygons: Iterable<LandPolygon>,
    readonly box: DegreeBox,
    cellDeg: number,
  ) {
    const midLat = ((box.south + box.north) / 2) * (Math.PI / 180);
    this.dLat = cellDeg;
    this.dLon = cellDeg / Math.max(0.05, Math.cos(midLat));
    this.rows = Math.max(1, Math.ceil((box.north - box.south) / this.dLat));
    this.columns = Math.max(1, Math.ceil((box.east - box.west) / this.dLon));
    this.cells = new Uint8Array(this.rows * this.columns);
    for (const polygon of polygons) this.fill(polygon);
  }

  /** Whether the point is on land (false outside the area). */
  isLand(latDeg: number, lonDeg: number): boolean {
    const row = Math.floor((latDeg - this.box.south) / this.dLat);
    const column = Math.floor((lonDeg - this.box.west) / this.dLon);
    if (!(row >= 0 && row < this.rows && column >= 0 && column < this.columns)) return false;
    return this.cells[row * this.columns + column] === 1;
  }

  /** The share of the area that is land, 0–1. */
  landShare(): number {
    let land = 0;
    for (let i = 0; i < this.cells.length; i++) land += this.cells[i]!;
    return land / this.cells.length;
  }

  /** Marks the cells whose centres lie inside `polygon` (a scan line per row of cells). */
  private fill(polygon: LandPolygon): void {
    const crossings: number[] = [];
    for (let row = 0; row < this.rows; row++) {
      const y = this.box.south + (row + 0.5) * this.dLat;
      crossings.length = 0;
      for (const ring of polygon) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const a = ring[j]!,
            b = ring[i]!;
          const ya = a[1]!,
            yb = b[1]!;
          // Half-open in y, so a vertex on the line counts once.
          if (ya <= y === yb <= y) continue;
          crossings.push(a[0]! + ((y - ya) * (b[0]! - a[0]!)) / (yb - ya));
        }
      }
      if (crossings.length < 2) continue;
      crossings.sort((p, q) => p - q);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        const from = Math.max(0, Math.ceil((crossings[k]! - this.box.west) / this.dLon - 0.5));
        const to = Math.min(this.columns - 1, Math.floor((crossings[k + 1]! - this.box.west) / this.dLon - 0.5));
        this.cells.fill(1, row * this.columns + from, row * this.columns + to + 1);
      }
    }
  }
}
