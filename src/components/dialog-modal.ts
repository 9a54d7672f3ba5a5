// Browser side of Dialog: the server opens dialogs with the `open` attribute (no JavaScript
// needed); reopening them with showModal() makes the page behind inert, Tab then cycles inside
// the dialog (the browser alone would step out to its own toolbar), and Escape follows the close
// link so the URL and the page agree.

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * Turns every server-opened dialog of the document into a modal one.
 * @example makeDialogsModal()
 */
export function makeDialogsModal(): void {
  for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog[open][data-close-href]')) {
    if (dialog.matches(':modal')) continue;
    dialog.close();
    dialog.showModal();
    carryFlash(dialog);
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      location.assign(dialog.dataset.closeHref!);
    });
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Tab') keepFocusInside(dialog, event);
    });
  }
}

/**
 * The page's flash (Page.astro's snackbar and its close toggle) would sit under the modal's
 * backdrop, unseen: it moves into the dialog, above it.
 */
function carryFlash(dialog: HTMLDialogElement): void {
  const toggle = document.getElementById('snackbar-close');
  const bar = document.querySelector('.snackbar');
  if (toggle && bar && !dialog.contains(bar)) dialog.append(toggle, bar);
}

function keepFocusInside(dialog: HTMLDialogElement, event: KeyboardEvent): void {
  const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const edge = event.shiftKey ? first : last;
  if (document.activeElement === edge) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}
