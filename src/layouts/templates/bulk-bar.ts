// The bulk bar with JavaScript (BulkBar.astro): the select-all box ticks every row of the page
// (and shows "some" when only a few are), the bar counts what is chosen, and the view choice
// shows only for Move. The rows live in the live region, which is swapped on task updates: the
// boxes are found anew each time, and live-dashboard.ts keeps their ticks across a swap.

const rows = () => [...document.querySelectorAll<HTMLInputElement>('input[data-bulk-row]')];

/** Wires the bar once; listens on the document so swapped rows need no wiring of their own. */
export function startBulkBar(): void {
  const form = document.getElementById('tpl-bulk');
  if (!form) return;
  const count = form.querySelector<HTMLOutputElement>('[data-bulk-count]');
  const action = form.querySelector<HTMLSelectElement>('[data-bulk-action]');
  const view = form.querySelector<HTMLElement>('[data-bulk-view]');
  const sync = () => {
    const all = document.querySelector<HTMLInputElement>('input[data-bulk-all]');
    const ticked = rows().filter((box) => box.checked).length;
    if (all) {
      all.checked = ticked > 0 && ticked === rows().length;
      all.indeterminate = ticked > 0 && ticked < rows().length;
    }
    if (count) {
      count.hidden = false;
      count.value = (count.dataset.label ?? '{n}').replace('{n}', String(ticked));
    }
    if (view && action) view.hidden = action.value !== 'move';
  };
  document.addEventListener('change', (event) => {
    const target = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLSelectElement)) return;
    if (target instanceof HTMLInputElement && target.matches('[data-bulk-all]')) for (const box of rows()) box.checked = target.checked;
    sync();
  });
  document.addEventListener('live-region:replaced', sync);
  sync();
}
