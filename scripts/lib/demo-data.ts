import type { DeskRole } from '../../domain/roles.ts';

/** A catalog product of the demo café. */
export interface DemoProduct {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  sortOrder: number;
}

/** The demo shop's currency. */
export const DEMO_CURRENCY = 'eur';

/** The demo café's menu. */
export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  {
    id: 'espresso',
    name: 'Espresso',
    description: 'A double shot of our house blend.',
    priceCents: 250,
  },
  {
    id: 'flat-white',
    name: 'Flat white',
    description: 'Double ristretto with silky milk.',
    priceCents: 380,
  },
  { id: 'latte', name: 'Latte', description: 'Espresso with steamed milk.', priceCents: 400 },
  {
    id: 'cappuccino',
    name: 'Cappuccino',
    description: 'Espresso, milk and a thick foam.',
    priceCents: 390,
  },
  { id: 'tea', name: 'Loose-leaf tea', description: 'Green, black or herbal.', priceCents: 300 },
  { id: 'orange-juice', name: 'Orange juice', description: 'Freshly squeezed.', priceCents: 450 },
  { id: 'croissant', name: 'Croissant', description: 'Baked this morning.', priceCents: 280 },
  {
    id: 'pain-au-chocolat',
    name: 'Pain au chocolat',
    description: 'Two bars of dark chocolate.',
    priceCents: 320,
  },
  {
    id: 'banana-bread',
    name: 'Banana bread',
    description: 'Toasted, with butter.',
    priceCents: 350,
  },
  {
    id: 'avocado-toast',
    name: 'Avocado toast',
    description: 'Sourdough, lime, chili.',
    priceCents: 950,
  },
  {
    id: 'granola-bowl',
    name: 'Granola bowl',
    description: 'Yogurt, berries, honey.',
    priceCents: 850,
  },
  {
    id: 'club-sandwich',
    name: 'Club sandwich',
    description: 'Chicken, bacon, tomato.',
    priceCents: 750,
  },
].map((product, index) => ({ ...product, sortOrder: index }));

/** A demo team member. */
export interface DemoAccount {
  id: string;
  name: string;
  email: string;
  role: DeskRole;
}

/** The demo accounts' shared password (local demo only). */
export const DEMO_PASSWORD = 'livedesk-demo';

/** Demo staff, manager and owner accounts. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { id: 'demo-owner', name: 'Olivia Park', email: 'owner@livedesk.test', role: 'owner' },
  { id: 'demo-manager', name: 'Marco Rossi', email: 'manager@livedesk.test', role: 'manager' },
  { id: 'demo-ana', name: 'Ana Silva', email: 'ana@livedesk.test', role: 'staff' },
  { id: 'demo-ben', name: 'Ben Okafor', email: 'ben@livedesk.test', role: 'staff' },
];

/**
 * The staff of the demo traffic under `npm start` (the simulator's `demo` mode): accounts of
 * their own, named as simulated on every screen, with no password (nobody signs in as them),
 * so that a person signed in with a demo account only ever sees their own actions under their name.
 */
export const SIMULATED_STAFF: readonly DemoAccount[] = [
  { id: 'sim-kim', name: 'Sim Kim (simulated)', email: 'sim-kim@livedesk.test', role: 'staff' },
  { id: 'sim-lou', name: 'Sim Lou (simulated)', email: 'sim-lou@livedesk.test', role: 'staff' },
  { id: 'sim-noa', name: 'Sim Noa (simulated)', email: 'sim-noa@livedesk.test', role: 'staff' },
];

/** First names for generated customers. */
export const FIRST_NAMES = [
  'Alex',
  'Bea',
  'Chen',
  'Dana',
  'Eli',
  'Fatima',
  'Gus',
  'Hana',
  'Ivo',
  'Jade',
  'Kofi',
  'Lena',
  'Mia',
  'Noah',
  'Omar',
  'Pia',
  'Quinn',
  'Rosa',
  'Sami',
  'Tara',
  'Uma',
  'Vik',
  'Wen',
  'Yara',
  'Zoe',
];

/** Last names for generated customers. */
export const LAST_NAMES = [
  'Adams',
  'Bauer',
  'Costa',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ito',
  'Jensen',
  'Kim',
  'Larsen',
  'Moreau',
  'Novak',
  'Olsen',
  'Patel',
  'Quist',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Urban',
  'Vargas',
  'Weber',
  'Young',
];
