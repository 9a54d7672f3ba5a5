// The bulk bar with JavaScript (BulkBar.astro): the select-all box ticks every row of the page
// (and shows "some" when only a few are), the bar counts what is chosen, and the view choice
// shows only for Move. The rows live in the live region, which is swapped on task updates: the
// boxes are found anew each time, and live-dashboard.ts keeps their ticks across a swap. In the
// continuous list (`?scroll=all`) the island keeps the chosen ids, rows scrolled away included,
// in a hidden field (`data-bulk-chosen`) and says `bulk:chosen` when they change: that is counted.

const rows = () => [...document.querySelectorAll<HTMLInputElement>('input[data-bulk-row]')];

/** How many templates are chosen: the island's ids when the list is continuous, else the ticked rows. */
function chosenCount(): number {
  const kept = document.querySelector<HTMLInputElement>('input[data-bulk-chosen]');
  if (kept) return kept.value.split('.').filter(Boolean).length;
  return rows().filter((box) => box.checked).length;
}

/** Wires the bar once; listens on the document so swapped rows need no wiring of their own. */
export function startBulkBar(): void {
  const form = document.getElementById('tpl-bulk');
  if (!form) return;
  const count = form.querySelector<HTMLOutputElement>('[data-bulk-count]');
  const action = form.querySelector<HTMLSelectElement>('[data-bulk-action]');
  const view = form.querySelector<HTMLElement>('[data-bulk-view]');
  const sync = () => {
    const all = document.querySelector<HTMLInputElement>('input[data-bulk-all]');
    const ticked = chosenCount();
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
  document.addEventListener('bulk:chosen', sync);
  sync();
}
