/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), evaluated in UTC as
 * Appwrite's scheduler does: `*`, lists `a,b`, ranges `a-b`, steps `*\/n` and `a-b/n`, month and
 * weekday names (`JAN`, `MON`), `7` for Sunday, and the macros `@yearly`, `@annually`,
 * `@monthly`, `@weekly`, `@daily`, `@midnight` and `@hourly`. When both day fields are
 * restricted a day matches if either does (Vixie cron's rule).
 */
export interface CronSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTH_NAMES = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldSpec {
  min: number;
  max: number;
  names?: readonly string[];
  /** Offset of names[0] (1 for months). */
  nameBase?: number;
}

const FIELDS: readonly FieldSpec[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  { min: 0, max: 7, names: DAY_NAMES, nameBase: 0 },
];

function parseValue(text: string, spec: FieldSpec): number {
  const upper = text.toUpperCase();
  const named = spec.names?.indexOf(upper) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d+$/.test(text)) throw new Error(`"${text}" is not a number`);
  const value = Number(text);
  if (value < spec.min || value > spec.max)
    throw new Error(`${value} is outside ${spec.min}-${spec.max}`);
  return value;
}

function parseField(text: string, spec: FieldSpec): { values: Set<number>; restricted: boolean } {
  const values = new Set<number>();
  let restricted = true;
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) === 0)
        throw new Error(`bad step "${stepText}"`);
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*') {
      from = spec.min;
      to = spec.max;
      if (stepText === undefined && text === '*') restricted = false;
    } else if (range.includes('-')) {
      const [a, b] = range.split('-') as [string, string];
      from = parseValue(a, spec);
      to = parseValue(b, spec);
      if (to < from) throw new Error(`range "${range}" runs backwards`);
    } else {
      from = parseValue(range, spec);
      to = stepText === undefined ? from : spec.max;
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return { values, restricted };
}

/** Parses a cron expression; throws an Error saying what is wrong. */
export function parseCron(expression: string): CronSchedule {
  const trimmed = expression.trim();
  const expanded = MACROS[trimmed.toLowerCase()] ?? trimmed;
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) throw new Error('a cron expression has 5 fields');
  const [minutes, hours, days, months, weekdays] = parts.map((part, index) =>
    parseField(part, FIELDS[index]!),
  ) as [
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
  ];
  if (weekdays.values.has(7)) weekdays.values.add(0);
  return {
    minutes: minutes.values,
    hours: hours.values,
    days: days.values,
    months: months.values,
    weekdays: weekdays.values,
    daysRestricted: days.restricted,
    weekdaysRestricted: weekdays.restricted,
  };
}

/** Whether `expression` is a valid cron expression. */
export function isValidCron(expression: string): boolean {
  try {
    parseCron(expression);
    return true;
  } catch {
    return false;
  }
}

/** Whether the UTC minute containing `time` (epoch ms) is one the schedule fires at. */
export function cronMatches(schedule: CronSchedule, time: number): boolean {
  const date = new Date(time);
  if (!schedule.minutes.has(date.getUTCMinutes())) return false;
  if (!schedule.hours.has(date.getUTCHours())) return false;
  if (!schedule.months.has(date.getUTCMonth() + 1)) return false;
  const dayOk = schedule.days.has(date.getUTCDate());
  const weekdayOk = schedule.weekdays.has(date.getUTCDay());
  if (schedule.daysRestricted && schedule.weekdaysRestricted) return dayOk || weekdayOk;
  return dayOk && weekdayOk;
}
