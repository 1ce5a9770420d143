// The client's pet type list (the renderer configuration's `pet.types`, RoomContentLoader.getPetNameForType):
// a pet's type id is an index into it, and the name is its library, `bundled/pet/<name>.nitro`. This is the
// list the public Nitro configuration ships; a hotel with its own list passes it in (`petTypes`).

/** Type id → library name, as the public Nitro renderer configuration lists them (27 is a second gnome). */
export const DEFAULT_PET_TYPES: readonly string[] = Object.freeze([
  'dog',
  'cat',
  'croco',
  'terrier',
  'bear',
  'pig',
  'lion',
  'rhino',
  'spider',
  'turtle',
  'chicken',
  'frog',
  'dragon',
  'monster',
  'monkey',
  'horse',
  'monsterplant',
  'bunnyeaster',
  'bunnyevil',
  'bunnydepressed',
  'bunnylove',
  'pigeongood',
  'pigeonevil',
  'demonmonkey',
  'bearbaby',
  'terrierbaby',
  'gnome',
  'gnome',
  'kittenbaby',
  'puppybaby',
  'pigletbaby',
  'haloompa',
  'fools',
  'pterosaur',
  'velociraptor',
  'cow',
  'LeetPen',
  'bbwibb',
  'elephants',
]);

/** The library name of a type id, or undefined when the list has none. */
export function petLibraryName(typeId: number, types: readonly string[] = DEFAULT_PET_TYPES): string | undefined {
  return Number.isInteger(typeId) && typeId >= 0 ? types[typeId] : undefined;
}
