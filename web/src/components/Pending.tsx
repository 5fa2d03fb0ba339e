/**
 * Where a figure or a line will be while it loads: a bar the size of `sample` set in the same
 * type, so nothing below moves when the real text arrives.
 */
export function Pending({ sample }: { sample: string }) {
  return (
    <span className="pending" aria-hidden="true">
      {/* Hidden, not transparent: it gives the bar its size and is not text anyone reads. */}
      <span className="pending__sample">{sample}</span>
    </span>
  );
}
