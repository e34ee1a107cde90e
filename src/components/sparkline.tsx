/** Path data for a sparkline of `values` in a `width`×`height` box (pure; exported for tests). */
export function sparklinePath(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const pad = 1.5;
  return values
    .map((value, index) => {
      const x = index * step;
      const y = height - pad - (value / max) * (height - pad * 2);
      return `${index === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join('');
}

/** A tiny SVG line chart (e.g. orders per minute over the last 30 minutes). */
export function Sparkline({
  values,
  width = 120,
  height = 28,
  label,
}: {
  values: readonly number[];
  width?: number;
  height?: number;
  label: string;
}) {
  const line = sparklinePath(values, width, height);
  const area = line ? `${line}L${width},${height}L0,${height}Z` : '';
  return (
    <svg
      className="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      {area && <path d={area} className="sparkline__area" />}
      {line && <path d={line} className="sparkline__line" />}
    </svg>
  );
}
