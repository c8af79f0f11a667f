/**
 * The symbol of a DIS entity type in MIL-STD-2525C: its battle dimension and function id, from the entity's kind,
 * domain and SISO-REF-010 category (platform categories UIDs 9–13, munition categories UID 15), as documented in
 * docs/cot.md. CoT types (`a-f-G-E-V-A-T`) and the map's symbols (SIDC `SFGPEVAT-------`) both come from here.
 * Plain numbers, no SISO data: the map page draws its first frame with this table.
 */

/** 2525C battle dimension: G ground, A air, S sea surface, U subsurface, P space; X none known. */
export type BattleDimension = 'G' | 'A' | 'S' | 'U' | 'P' | 'X';

/** A MIL-STD-2525C symbol function: its code and battle dimension. */
export interface SymbolFunction {
  readonly dimension: BattleDimension;
  /** The 2525C function id without its padding, e.g. `EVAT` (armoured tank); '' for the dimension's generic symbol. */
  readonly functionId: string;
  /** The CoT type below the affiliation: the dimension and the function id's letters, `G-E-V-A-T`. */
  readonly cotTail: string;
}

/** Land platform categories (SISO-REF-010 UID 9) → ground function ids. */
const LAND: Readonly<Record<number, string>> = {
  0: 'EV', // Other: ground vehicle
  1: 'EVAT', // Tank
  2: 'EVAI', // Armored Fighting Vehicle: armoured infantry
  3: 'EVAA', // Armored Utility Vehicle: armoured personnel carrier
  4: 'EWHMS', // Self-Propelled Artillery: howitzer, medium, self-propelled
  5: 'EWHM', // Towed Artillery: howitzer, medium
  6: 'EVU', // Small Wheeled Utility Vehicle
  7: 'EVUX', // Large Wheeled Utility Vehicle: cross-country truck
  8: 'EVU', // Small Tracked Utility Vehicle
  9: 'EVU', // Large Tracked Utility Vehicle
  10: 'EWO', // Mortar
  11: 'EVEA', // Mine Plow: mine clearing vehicle
  12: 'EVEA', // Mine Rake
  13: 'EVEA', // Mine Roller
  14: 'EVU', // Cargo Trailer
  15: 'EVU', // Fuel Trailer
  16: 'EVU', // Generator Trailer
  17: 'EVU', // Water Trailer
  18: 'EVE', // Engineer Equipment: engineer vehicle
  19: 'EVU', // Heavy Equipment Transport Trailer
  20: 'EVU', // Maintenance Equipment Trailer
  21: 'EVU', // Limber
  22: 'EVU', // Chemical Decontamination Trailer
  23: 'E', // Warning System: equipment
  24: 'EVT', // Train - Engine: locomotive
  25: 'EVT', // Train - Car
  26: 'EVT', // Train - Caboose
  27: 'EVC', // Civilian Vehicle
  28: 'EWMA', // Air Defense / Missile Defense Unit Equipment: air defence missile launcher
  29: 'E', // C3I System
  30: 'I', // Operations Facility: installation
  31: 'I', // Intelligence Facility
  32: 'I', // Surveillance Facility
  33: 'I', // Communications Facility
  34: 'I', // Command Facility
  35: 'I', // C4I Facility
  36: 'I', // Control Facility
  37: 'I', // Fire Control Facility
  38: 'I', // Missile Defense Facility
  39: 'I', // Field Command Post
  40: 'I', // Observation Post
  41: 'EVEA', // Mine Flail
  50: 'EV', // Unmanned
  80: 'EVC', // Motorcycle: civilian vehicle
  81: 'EVCA', // Car: automobile
  82: 'EVCM', // Bus: multi-passenger vehicle
  83: 'EVCU', // Single Unit Cargo Truck: utility vehicle (box truck)
  84: 'EVCU', // Single Unit Utility/Emergency Truck
  85: 'EVCT', // Multiple Unit Cargo Truck: tractor trailer
  86: 'EVCT', // Multiple Unit Utility/Emergency Truck
  87: 'EVEC', // Construction Specialty Vehicle: construction vehicle
  88: 'EVC', // Farm Specialty Vehicle
  89: 'EVC', // Trailer
  90: 'EVC', // Recreational
  91: 'EVC', // Non-motorized
  92: 'EVT', // Trains
  93: 'EVCA', // Utility/Emergency Car
};

/** Air platform categories (UID 10) → air function ids. */
const AIR: Readonly<Record<number, string>> = {
  0: '', // Other
  1: 'MFF', // Fighter/Air Defense
  2: 'MFA', // Attack/Strike
  3: 'MFB', // Bomber
  4: 'MFC', // Cargo/Tanker: cargo airlift
  5: 'MFP', // ASW/Patrol/Observation: patrol
  6: 'MFJ', // Electronic Warfare: ECM/jammer
  7: 'MFR', // Reconnaissance
  8: 'MFRW', // Surveillance/C2 (Airborne Early Warning)
  9: 'MFH', // Air-Sea Rescue: combat search and rescue
  20: 'MHA', // Attack Helicopter
  21: 'MHU', // Utility Helicopter
  22: 'MHS', // Anti-Submarine Warfare/Patrol Helicopter
  23: 'MHC', // Cargo Helicopter
  24: 'MHR', // Observation Helicopter: reconnaissance
  25: 'MHM', // Special Operations Helicopter
  26: 'MHT', // Training Helicopter
  40: 'MFT', // Trainer
  50: 'MFQ', // Unmanned: drone
  57: 'CF', // Non-Combatant Commercial Aircraft: civil fixed wing
  80: 'CF', // Civilian Ultralight, Non-rigid Wing
  81: 'CF', // Civilian Ultralight, Rigid Wing
  83: 'CF', // Civilian Glider
  84: 'CF', // Civilian Light Sport
  85: 'CF', // Civilian Fixed Wing, Small
  86: 'CF', // Civilian Fixed Wing, Medium
  87: 'CF', // Civilian Fixed Wing, Large
  88: 'CF', // Civilian Fixed Wing, Heavy
  90: 'CH', // Civilian Helicopter, Small: civil rotary wing
  91: 'CH', // Civilian Helicopter, Medium
  92: 'CH', // Civilian Helicopter, Large
  93: 'CH', // Civilian Autogyro
  100: 'CL', // Civilian Balloon: lighter than air
  101: 'CL', // Civilian Airship
};

/** Surface platform categories (UID 11) → sea surface function ids. */
const SURFACE: Readonly<Record<number, string>> = {
  0: '', // Other
  1: 'CLCV', // Carrier
  2: 'CLCC', // Command Ship/Cruiser
  3: 'CLCC', // Guided Missile Cruiser
  4: 'CLDD', // Guided Missile Destroyer
  5: 'CLDD', // Destroyer
  6: 'CLFF', // Guided Missile Frigate
  7: 'CP', // Light/Patrol Craft: patrol
  8: 'CM', // Mine Countermeasure Ship/Craft: mine warfare vessel
  9: 'CALS', // Dock Landing Ship: landing ship
  10: 'CALST', // Tank Landing Ship
  11: 'CALC', // Landing Craft
  12: 'CLCV', // Light Carrier
  13: 'CLCV', // Cruiser/Helicopter Carrier
  14: 'CP', // Hydrofoil
  15: 'CH', // Air Cushion/Surface Effect: hovercraft
  16: 'N', // Auxiliary: noncombatant
  17: 'N', // Auxiliary, Merchant Marine
  18: 'NS', // Utility: service/support harbour
  19: 'CU', // Unmanned Surface Vehicle
  20: 'CLLL', // Littoral Combat Ships
  21: 'NI', // Surveillance Ship: intelligence
  50: 'CLFF', // Frigate (including Corvette)
  51: 'CLBB', // Battleship
  52: 'CLCC', // Heavy Cruiser
  53: 'NF', // Destroyer Tender: fleet support
  54: 'CALA', // Amphibious Assault Ship
  55: 'CA', // Amphibious Cargo Ship: amphibious warfare ship
  56: 'CALS', // Amphibious Transport Dock
  57: 'NR', // Ammunition Ship: underway replenishment
  58: 'NR', // Combat Stores Ship
  59: 'NI', // SURTASS
  60: 'NR', // Fast Combat Support Ship
  61: 'N', // Non-Combatant Ship
  62: 'XL', // Coast Guard Cutters: law enforcement vessel
  63: 'XL', // Coast Guard Boats
  64: 'CP', // Fast Attack Craft
  65: 'CP', // Inflatable Boat
  80: 'XMP', // Passenger Vessel: merchant, passenger
  81: 'XMC', // Dry Cargo Ship: merchant, cargo
  82: 'XMO', // Tanker: merchant, oiler/tanker
  83: 'XM', // Offshore Support Vessel: merchant
  84: 'XR', // Private Motorboat: leisure craft
  85: 'XR', // Private Sailboat
  86: 'XF', // Fishing Vessel
  87: 'X', // Other Vessels: non-military
  100: 'NS', // Search and Rescue Vessels: service and support
  101: 'X', // Life-Saving Equipment
};

/** Subsurface platform categories (UID 12) → subsurface function ids. */
const SUBSURFACE: Readonly<Record<number, string>> = {
  0: '', // Other
  1: 'SNB', // SSBN: nuclear, ballistic missile
  2: 'SNM', // SSGN: nuclear, missile
  3: 'SNA', // SSN: nuclear, attack
  4: 'SCM', // SSG: conventional, missile
  5: 'SCA', // SS: conventional, attack
  6: 'SN', // SSAN: nuclear
  7: 'SC', // SSA: conventional
  8: 'SU', // Unmanned Underwater Vehicle
  9: 'SCB', // SSB: conventional, ballistic missile
  10: 'SC', // SSC: coastal
  11: 'SCA', // SSP: attack, air-independent
  12: 'SO', // SSM: midget, other submersible
  13: 'SNA', // SSNR: special attack
  14: 'S', // SST: training
  15: 'SC', // AGSS: auxiliary
  16: 'SO', // Semi-Submersible Boats
  80: 'SO', // Civilian Submarines
  81: 'SO', // Civilian Submersibles
  82: 'SO', // Civilian Semi-Submersible Boats
};

/** Space platform categories (UID 13) → space function ids. */
const SPACE: Readonly<Record<number, string>> = {
  1: 'V', // Manned Spacecraft: crewed space vehicle
  2: 'S', // Unmanned: satellite
  3: 'L', // Booster: space launch vehicle
  11: 'S', // Satellites (11–18)
  12: 'S',
  13: 'S',
  14: 'S',
  15: 'S',
  16: 'S',
  17: 'S',
  18: 'S',
};

const PLATFORMS: readonly [BattleDimension, Readonly<Record<number, string>>][] = [
  ['X', {}],
  ['G', LAND],
  ['A', AIR],
  ['S', SURFACE],
  ['U', SUBSURFACE],
  ['P', SPACE],
];

/** Munition domains (SISO-REF-010 UID 14) aimed at ships and submarines. */
const ANTI_SHIP = 6;
const ANTI_SUBMARINE = 7;

const cache = new Map<number, SymbolFunction>();

/**
 * The 2525C battle dimension and function id of an entity type: platforms by domain and category; munitions by
 * category and target domain (a guided anti-submarine munition a torpedo, a fixed one a sea or land mine, other
 * guided ones missiles in flight); human life forms infantry; expendables decoys; cultural features installations.
 * A category the table does not list falls back to its domain's generic symbol. Never throws.
 */
export function symbolFunction(kind: number, domain: number, category: number): SymbolFunction {
  const key = (kind & 0xff) * 0x1_0000 + (domain & 0xff) * 0x100 + (category & 0xff);
  let found = cache.get(key);
  if (found === undefined) {
    const { dimension, functionId } = lookUp(kind & 0xff, domain & 0xff, category & 0xff);
    found = { dimension, functionId, cotTail: [dimension, ...functionId].join('-') };
    cache.set(key, found);
  }
  return found;
}

function lookUp(kind: number, domain: number, category: number): Omit<SymbolFunction, 'cotTail'> {
  switch (kind) {
    case 1: {
      const [dimension, table] = PLATFORMS[domain] ?? PLATFORMS[0]!;
      return { dimension, functionId: table[category] ?? table[0] ?? '' };
    }
    case 2: // munition: category 1 guided, 2 ballistic, 3 fixed
      if (category === 3) {
        return domain === ANTI_SHIP || domain === ANTI_SUBMARINE
          ? { dimension: 'U', functionId: 'WM' }
          : { dimension: 'G', functionId: 'EXM' };
      }
      if (category === 1 && domain === ANTI_SUBMARINE) return { dimension: 'U', functionId: 'WT' };
      return { dimension: 'A', functionId: category === 1 ? 'WM' : 'W' };
    case 3: // life form: humans (categories below 200) as infantry, animals by their element
      if (domain === 2) return { dimension: 'A', functionId: '' };
      if (domain === 4) return { dimension: 'U', functionId: '' };
      return { dimension: 'G', functionId: category < 200 ? 'UCI' : '' };
    case 5: // cultural feature
      return { dimension: 'G', functionId: 'I' };
    case 6: // supply: its domain is a supply class, not where it is
      return { dimension: 'G', functionId: 'E' };
    case 8: // expendable: chaff, flares, decoys
      return domain === 3
        ? { dimension: 'S', functionId: 'CD' }
        : domain === 4
          ? { dimension: 'U', functionId: 'WD' }
          : { dimension: 'A', functionId: 'WD' };
    default: {
      const dimension = PLATFORMS[domain]?.[0] ?? 'X';
      return { dimension, functionId: dimension === 'G' ? 'E' : '' };
    }
  }
}

/** The CoT type below the affiliation, `G-E-V-A-T`: the dimension and the function id's letters. */
export function cotTypeTail(kind: number, domain: number, category: number): string {
  return symbolFunction(kind, domain, category).cotTail;
}

/** The 15-character 2525C SIDC: `S`, the affiliation (F, H, N, U), the dimension, `P` (present), the function id. */
export function sidcOf(affiliation: 'F' | 'H' | 'N' | 'U', kind: number, domain: number, category: number): string {
  const { dimension, functionId } = symbolFunction(kind, domain, category);
  // 2525C has no "other" dimension: such an entity gets the unknown one (Z).
  return `S${affiliation}${dimension === 'X' ? 'Z' : dimension}P${functionId.padEnd(6, '-')}-----`;
}
