import { initials } from '../lib/format.ts';

const HUES = [210, 160, 280, 20, 340, 100, 40, 190];

function hueOf(seed: string): number {
  let hash = 0;
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) | 0;
  return HUES[Math.abs(hash) % HUES.length]!;
}

/** Initials in a colored circle; the color is stable per person. */
export function Avatar({
  name,
  id,
  size = 'md',
}: {
  name: string;
  id?: string;
  size?: 'sm' | 'md';
}) {
  return (
    <span
      className={`avatar avatar--${size}`}
      style={{ ['--avatar-hue' as string]: hueOf(id ?? name) }}
      title={name}
      aria-hidden="true"
    >
      {initials(name)}
    </span>
  );
}
