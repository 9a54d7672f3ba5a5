// Browser side of Dialog: the server opens dialogs with the `open` attribute (no JavaScript
// needed); reopening them with showModal() gives the browser's own focus trap and inert page,
// and Escape then follows the close link so the URL and the page agree.

/**
 * Turns every server-opened dialog of the document into a modal one.
 * @example makeDialogsModal()
 */
export function makeDialogsModal(): void {
  for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog[open][data-close-href]')) {
    if (dialog.matches(':modal')) continue;
    dialog.close();
    dialog.showModal();
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      location.assign(dialog.dataset.closeHref!);
    });
  }
}
