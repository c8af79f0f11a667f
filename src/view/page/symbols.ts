/**
 * MIL-STD-2525C symbol identification codes (SIDC) from DIS entity kind, domain and force (IEEE 1278.1 §6.2.30
 * entity type; SISO-REF-010 force ids and domains), and the icon atlas drawn once with milsymbol.
 *
 * A 15-character 2525C SIDC is: coding scheme `S` (warfighting), standard identity (affiliation: F friend,
 * H hostile, N neutral, U unknown), battle dimension (P space, A air, G ground, S sea surface, U subsurface),
 * status `P` (present), a six-character function id and five modifier/country/order-of-battle characters, here `-`.
 */

/** DIS force id → 2525 affiliation: 1 friendly, 2 opposing, 3 neutral, then friendly 2, opposing 2, …; 0 other. */
export function affiliationOf(forceId: number): 'F' | 'H' | 'N' | 'U' {
  if (forceId <= 0 || forceId > 255) return 'U';
  return (['F', 'H', 'N'] as const)[(forceId - 1) % 3]!;
}

/** DIS platform domain (1 land, 2 air, 3 surface, 4 subsurface, 5 space) → 2525 battle dimension. */
function dimensionOf(domain: number): 'G' | 'A' | 'S' | 'U' | 'P' {
  switch (domain) {
    case 2:
      return 'A';
    case 3:
      return 'S';
    case 4:
      return 'U';
    case 5:
      return 'P';
    default:
      return 'G';
  }
}

/**
 * The symbol's function id by kind and domain: platforms (kind 1) as the domain's generic military platform,
 * munitions (kind 2) as a missile in flight, life forms (kind 3) as infantry; anything else as the dimension's
 * generic symbol.
 */
function functionOf(kind: number, dimension: string): string {
  if (kind === 1) {
    switch (dimension) {
      case 'A':
        return 'MF----'; // military fixed wing
      case 'S':
        return 'C-----'; // combatant
      case 'U':
        return 'S-----'; // submarine
      case 'P':
        return 'S-----'; // satellite
      default:
        return 'EV----'; // ground vehicle
    }
  }
  if (kind === 2) return dimension === 'U' ? 'WT----' : 'WM----'; // torpedo, missile in flight
  if (kind === 3) return 'UCI---'; // infantry
  return '------';
}

/**
 * The 15-character SIDC for an entity.
 * @param kind - DIS entity kind (1 platform, 2 munition, 3 life form, …).
 * @param domain - DIS domain (1 land, 2 air, 3 surface, 4 subsurface, 5 space).
 * @param forceId - DIS force id.
 */
export function sidcFor(kind: number, domain: number, forceId: number): string {
  // Life forms stand on the ground whatever domain they report; munitions fly unless launched under water.
  const dimension = kind === 3 ? 'G' : kind === 2 ? (domain === 4 ? 'U' : 'A') : dimensionOf(domain);
  return `S${affiliationOf(forceId)}${dimension}P${functionOf(kind, dimension)}-----`;
}

/** The atlas key of an entity: a symbol is drawn once per distinct key. */
export function symbolKey(kind: number, domain: number, forceId: number): string {
  return sidcFor(kind, domain, forceId);
}
