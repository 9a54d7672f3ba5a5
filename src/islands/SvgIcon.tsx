/** An inline SVG path icon inside an island: the island twin of components/Icon.astro. */
export default function SvgIcon({ path, label }: { path: string; label?: string }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="1.25em" height="1.25em" fill="currentColor" focusable="false"
      role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true}><path d={path} /></svg>
  );
}
