// The column-visibility sheet of a table (seed 001 §2): which columns are hidden is remembered
// per browser in localStorage under the table's name. The sheet shows only with JavaScript.

/**
 * Applies the remembered hidden columns to `root` (as `data-hide="a b"`, which the page's CSS
 * reads) and wires the sheet's checkboxes (`input[data-col]`).
 * @example startColumnSheet(document.querySelector('[data-table=templates]')!)
 */
export function startColumnSheet(root: HTMLElement): void {
  const key = `columns:${root.dataset.table ?? ''}`;
  let hidden: string[] = [];
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    if (Array.isArray(stored)) hidden = stored.filter((c): c is string => typeof c === 'string');
  } catch { /* a damaged entry shows every column */ }
  const apply = () => { root.dataset.hide = hidden.join(' '); };
  apply();
  const sheet = document.querySelector<HTMLElement>(`[data-column-sheet="${root.dataset.table ?? ''}"]`);
  if (!sheet) return;
  sheet.hidden = false;
  const boxes = [...sheet.querySelectorAll<HTMLInputElement>('input[data-col]')];
  for (const box of boxes) {
    box.checked = !hidden.includes(box.dataset.col ?? '');
    box.addEventListener('change', () => {
      hidden = boxes.filter((b) => !b.checked).map((b) => b.dataset.col ?? '');
      localStorage.setItem(key, JSON.stringify(hidden));
      apply();
    });
  }
}
