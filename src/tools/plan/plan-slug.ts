import { randomInt } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Heroes of myth and legend from around the world; plan files are named after three of them
 * (`perseus-mulan-gilgamesh.md`) so a user can tell plans apart at a glance.
 */
export const PLAN_HEROES: readonly string[] = [
  'achilles',
  'aeneas',
  'ajax',
  'alcestis',
  'amaterasu',
  'anansi',
  'andromeda',
  'antigone',
  'ariadne',
  'arjuna',
  'arthur',
  'atalanta',
  'bellerophon',
  'beowulf',
  'bhima',
  'boudica',
  'brunhild',
  'castor',
  'cuchulainn',
  'damayanti',
  'deirdre',
  'diomedes',
  'draupadi',
  'el-cid',
  'enkidu',
  'fionn',
  'galahad',
  'gawain',
  'gilgamesh',
  'guan-yu',
  'hanuman',
  'hector',
  'heracles',
  'hiawatha',
  'hippolyta',
  'hua-mulan',
  'ilya-muromets',
  'iphigenia',
  'jason',
  'kaveh',
  'kintaro',
  'lagertha',
  'lancelot',
  'maui',
  'medea',
  'merlin',
  'momotaro',
  'mwindo',
  'nala',
  'nezha',
  'odysseus',
  'oisin',
  'orpheus',
  'pallas',
  'penelope',
  'percival',
  'perseus',
  'polydeuces',
  'psyche',
  'rama',
  'roland',
  'rostam',
  'sadko',
  'savitri',
  'scheherazade',
  'siegfried',
  'sigurd',
  'sita',
  'sohrab',
  'sundiata',
  'sun-wukong',
  'susanoo',
  'telemachus',
  'theseus',
  'tristan',
  'ulysses',
  'vainamoinen',
  'vasilisa',
  'william-tell',
  'yamato-takeru',
  'yi-the-archer',
  'yue-fei',
  'zhuge-liang',
  'zorro',
];

/** Attempts at an unused three-hero name before falling back to a suffix that cannot collide. */
export const SLUG_ATTEMPTS = 20;

/** Picks an index below `max`; swappable so tests can force collisions. */
export type PickIndex = (max: number) => number;

/**
 * A plan-file name (without `.md`) not yet used in `plansDir`: three random heroes joined by dashes.
 * After 20 names that are all taken, the last one gets the first 8 characters of the plan session id.
 */
export async function newPlanSlug(
  plansDir: string,
  planSessionId: string,
  pick: PickIndex = randomInt,
): Promise<string> {
  let slug = '';
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    slug = [0, 1, 2].map(() => PLAN_HEROES[pick(PLAN_HEROES.length)]).join('-');
    if (!(await exists(join(plansDir, `${slug}.md`)))) return slug;
  }
  return `${slug}-${planSessionId.slice(0, 8)}`;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
