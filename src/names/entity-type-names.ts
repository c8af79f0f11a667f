/**
 * The names of an Entity Type record (IEEE 1278.1 §6.2.30: kind, domain, country, category, subcategory, specific,
 * extra) from the entity types SISO-REF-010 lists. A type SISO does not list is named by its nearest listed parent
 * (extra dropped, then specific, then subcategory: the category itself), and failing that by its kind, domain,
 * country and, where SISO's category enumeration for the kind and domain names it, its category. Each result is made once and kept: the same type gives the same object.
 */
import { type EntityTypeLike, entityTypeFields } from './entity-type-fields.js';
import { countryCode, countryName, domainName, entityKindName, isListed, nameByUid } from './enumerations.js';
import { entityTypeHigh, entityTypeLow, entityTypeRowOf, entityTypeRows } from './siso-tables.js';

/** The names of an entity type's fields, and the nearest listed type's description. */
export interface EntityTypeNames {
  readonly kind: string;
  readonly domain: string;
  readonly country: string;
  /** The names of the levels below the country, where SISO lists them (undefined below the deepest listed). */
  readonly category: string | undefined;
  readonly subcategory: string | undefined;
  readonly specific: string | undefined;
  readonly extra: string | undefined;
  /** True when SISO lists this very type; false when it is named by a parent, or by kind and domain alone. */
  readonly exact: boolean;
  /**
   * The SISO entry it is named by, as `kind:domain:country:category:subcategory:specific:extra`; undefined when
   * none is (then only kind, domain and country are named).
   */
  readonly listedAs: string | undefined;
  /** Short, for a screen: the deepest name, the category and the country's code, e.g. "M1A2 · Tank · USA". */
  readonly label: string;
  /** Every level named, from the kind down: "Platform / Land / United States of America (USA) / Tank / M1 Abrams / M1A2". */
  readonly path: string;
}

/** The listed row that names this type, or -1: the type itself, else its nearest listed parent down to the category. */
export function entityTypeRow(
  kind: number,
  domain: number,
  country: number,
  category: number,
  subcategory: number,
  specific: number,
  extra: number,
): number {
  const high = entityTypeHigh(kind, domain, country);
  let row = entityTypeRowOf(high, entityTypeLow(category, subcategory, specific, extra));
  if (row < 0 && extra !== 0) row = entityTypeRowOf(high, entityTypeLow(category, subcategory, specific, 0));
  if (row < 0 && specific !== 0) row = entityTypeRowOf(high, entityTypeLow(category, subcategory, 0, 0));
  if (row < 0 && subcategory !== 0) row = entityTypeRowOf(high, entityTypeLow(category, 0, 0, 0));
  return row;
}

let exactNames: (EntityTypeNames | undefined)[] = [];
let parentNames: (EntityTypeNames | undefined)[] = [];
const FALLBACK_LIMIT = 4096;
const fallbackNames = new Map<number, EntityTypeNames>();

/** The names of an entity type given as its seven numbers. */
export function entityTypeNameOf(
  kind: number,
  domain: number,
  country: number,
  category: number,
  subcategory: number,
  specific: number,
  extra: number,
): EntityTypeNames {
  if (!inRange(kind, domain, country, category, subcategory, specific, extra)) {
    return fallback(kind, domain, country, category);
  }
  const row = entityTypeRow(kind, domain, country, category, subcategory, specific, extra);
  if (row < 0) return fallback(kind, domain, country, category);
  const rows = entityTypeRows();
  const exact = rows.low[row] === entityTypeLow(category, subcategory, specific, extra);
  if (exactNames.length !== rows.count) {
    exactNames = new Array(rows.count);
    parentNames = new Array(rows.count);
  }
  const cache = exact ? exactNames : parentNames;
  return (cache[row] ??= rowNames(row, exact));
}

/** The names of an entity type (its JSON object, or its seven numbers). Never throws. */
export function entityTypeName(type: EntityTypeLike): EntityTypeNames {
  return entityTypeNameOf(...entityTypeFields(type));
}

function isByte(n: number): boolean {
  return n >>> 0 === n && n <= 0xff;
}

function inRange(
  kind: number,
  domain: number,
  country: number,
  category: number,
  subcategory: number,
  specific: number,
  extra: number,
): boolean {
  return (
    isByte(kind) &&
    isByte(domain) &&
    country >>> 0 === country &&
    country <= 0xffff &&
    isByte(category) &&
    isByte(subcategory) &&
    isByte(specific) &&
    isByte(extra)
  );
}

/** One shape for every result, so that a reader's property loads stay monomorphic. */
class Names implements EntityTypeNames {
  readonly path: string;
  constructor(
    readonly kind: string,
    readonly domain: string,
    readonly country: string,
    readonly category: string | undefined,
    readonly subcategory: string | undefined,
    readonly specific: string | undefined,
    readonly extra: string | undefined,
    readonly exact: boolean,
    readonly listedAs: string | undefined,
    readonly label: string,
  ) {
    this.path = [kind, domain, country, category, subcategory, specific, extra]
      .filter((x) => x !== undefined)
      .join(' / ');
  }
}

function rowNames(row: number, exact: boolean): EntityTypeNames {
  const entityTypes = entityTypeRows();
  const high = entityTypes.high[row]!;
  const low = entityTypes.low[row]!;
  const kind = high >>> 24;
  const domain = (high >>> 16) & 0xff;
  const country = high & 0xffff;
  const level = (i: number) => entityTypes.names[row * 4 + i];
  const [category, subcategory, specific, extra] = [level(0), level(1), level(2), level(3)];
  const kindName = entityKindName(kind);
  const domainText = domainName(kind, domain);
  // A level numbered 0 is the "…, Other" or "None" SISO lists under its parent: the label names the parent.
  const named = (name: string | undefined, shift: number) => (((low >>> shift) & 0xff) === 0 ? undefined : name);
  const deepest = named(extra, 0) ?? named(specific, 8) ?? named(subcategory, 16);
  const code = country === 0 ? undefined : countryCode(country);
  const what =
    deepest !== undefined ? [deepest, category] : category === undefined ? [kindName, domainText] : [category];
  if (deepest === undefined && category !== undefined) what.push(...kindContext(kind, kindName, domainText, category));
  const label = [...what, code].filter((x) => x !== undefined).join(' · ');
  const listedAs = [kind, domain, country, low >>> 24, (low >>> 16) & 0xff, (low >>> 8) & 0xff, low & 0xff].join(':');
  return new Names(
    kindName,
    domainText,
    countryName(country),
    category,
    subcategory,
    specific,
    extra,
    exact,
    listedAs,
    label,
  );
}

/** Category names that say nothing of what the entity is. */
const GENERIC_NAMES = new Set(['other', 'unused', 'not used', 'unknown']);
/** Entity kind 1 (SISO-REF-010 UID 7). */
const KIND_PLATFORM = 1;

/**
 * What a label that names only the category adds so the entity's kind shows: the kind ("C - Combat Rations ·
 * Supply", "Guided · Munition"), except a platform's, whose categories say it ("Tank"); and the domain too where the
 * category is a generic "Other" ("Other · Platform · Air"). Nothing the category already says.
 */
function kindContext(kind: number, kindName: string, domainText: string, category: string): string[] {
  const generic = (name: string) => GENERIC_NAMES.has(name.toLowerCase());
  const vague = generic(category);
  const context: string[] = [];
  if ((vague || kind !== KIND_PLATFORM) && kindName !== category) context.push(kindName);
  if (vague && !generic(domainText) && domainText !== category) context.push(domainText);
  return context;
}

/**
 * The enumeration that names a category when SISO lists no entity type for it (SISO-REF-010 §6.2.3–6.2.9):
 * platform categories by domain, munition categories, life form categories by domain, radio, expendable by domain,
 * sensor/emitter, and a supply class's categories.
 */
function categoryEnumerationUid(kind: number, domain: number): number | undefined {
  switch (kind) {
    case 1:
      return domain >= 1 && domain <= 5 ? 8 + domain : undefined; // PlatformLandCategory (9) … Space (13)
    case 2:
      return 15; // MunitionCategory
    case 3:
      return domain === 1 ? 472 : domain === 2 ? 478 : domain === 4 ? 479 : undefined; // LifeForm…Categories
    case 6:
      return domain >= 1 && domain <= 12 ? 600 + domain : undefined; // Class1SupplyCategory… (601–612)
    case 7:
      return 22; // RadioCategory
    case 8:
      return domain >= 2 && domain <= 4 ? 23 + domain : undefined; // ExpendableAirCategory (25) … Subsurface (27)
    case 9:
      return 28; // SensorEmitterCategory
    default:
      return undefined;
  }
}

/** A type SISO lists no row for: kind, domain and country, and the category where its enumeration names it. */
function fallback(kind: number, domain: number, country: number, category: number): EntityTypeNames {
  const cacheable = isByte(kind) && isByte(domain) && country >>> 0 === country && country <= 0xffff;
  const key = ((kind * 0x100 + domain) * 0x1_0000 + country) * 0x100 + (isByte(category) ? category : 0);
  let names = cacheable ? fallbackNames.get(key) : undefined;
  if (names === undefined) {
    const kindName = entityKindName(kind);
    const domainText = domainName(kind, domain);
    const uid = categoryEnumerationUid(kind, domain);
    const categoryName =
      uid !== undefined && isListed(uid, category) && category !== 0 ? nameByUid(uid, category) : undefined;
    const code = country === 0 ? [] : [countryCode(country)];
    const what =
      categoryName === undefined
        ? [kindName, domainText]
        : [categoryName, ...kindContext(kind, kindName, domainText, categoryName)];
    const label = [...what, ...code].join(' · ');
    const none = undefined;
    names = new Names(kindName, domainText, countryName(country), categoryName, none, none, none, false, none, label);
    if (cacheable) {
      if (fallbackNames.size >= FALLBACK_LIMIT) fallbackNames.clear();
      fallbackNames.set(key, names);
    }
  }
  return names;
}
