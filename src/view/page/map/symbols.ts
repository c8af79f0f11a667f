/**
 * MIL-STD-2525C symbol identification codes (SIDC) of DIS entities: the standard identity from the force id, the
 * battle dimension and function id from the entity's kind, domain and SISO-REF-010 category through the table of
 * src/names/symbol-functions.ts (documented in docs/cot.md, shared with the CoT types), drawn with milsymbol.
 *
 * A 15-character 2525C SIDC is: coding scheme `S` (warfighting), standard identity (affiliation: F friend,
 * H hostile, N neutral, U unknown), battle dimension (P space, A air, G ground, S sea surface, U subsurface),
 * status `P` (present), a six-character function id and five modifier/country/order-of-battle characters, here `-`.
 */
import { sidcOf } from '../../../names/symbol-functions.js';

/** DIS force id → 2525 affiliation: 1 friendly, 2 opposing, 3 neutral, then friendly 2, opposing 2, …; 0 other. */
export function affiliationOf(forceId: number): 'F' | 'H' | 'N' | 'U' {
  if (forceId <= 0 || forceId > 255) return 'U';
  return (['F', 'H', 'N'] as const)[(forceId - 1) % 3]!;
}

/**
 * The 15-character SIDC for an entity: a tank `SFGPEVAT-------`, an attack helicopter `SHAPMHA--------`.
 * @param kind - DIS entity kind (1 platform, 2 munition, 3 life form, …).
 * @param domain - DIS domain (1 land, 2 air, 3 surface, 4 subsurface, 5 space; a munition's is its target's).
 * @param forceId - DIS force id.
 * @param category - SISO-REF-010 category. Defaults to 0 (other: the domain's generic symbol).
 */
export function sidcFor(kind: number, domain: number, forceId: number, category = 0): string {
  return sidcOf(affiliationOf(forceId), kind, domain, category);
}

/** The atlas key of an entity: a symbol is drawn once per distinct key. */
export function symbolKey(kind: number, domain: number, forceId: number, category = 0): string {
  return sidcFor(kind, domain, forceId, category);
}
