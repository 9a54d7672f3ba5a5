import { useEffect, useState, type KeyboardEvent } from 'react';

/** Messages of the `templateForm` locale section, as the page passes them to each island. */
export type Messages = Record<string, string>;

/**
 * False on the server and in the first browser render (so hydration matches the server's
 * textarea), true once the island runs: until then the plain field posts the JSON itself.
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/** Enter inside an editor panel saves the panel instead of submitting the template form. */
export function onEnter(action: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !(event.target instanceof HTMLTextAreaElement)) {
      event.preventDefault();
      action();
    }
  };
}

/** The JavaScript-off field: a textarea posting the same name the island's hidden input posts. */
export function PlainField({ name, value, label, hint }: { name: string; value: string; label: string; hint: string }) {
  return (
    <>
      <textarea name={name} defaultValue={value} rows={4} aria-label={label} aria-describedby={`${name}-hint`} spellCheck={false} className="tpl-json" />
      <small id={`${name}-hint`}>{hint}</small>
    </>
  );
}

/** A message under a panel field, announced when it appears. */
export function FieldMessage({ id, text }: { id: string; text?: string }) {
  return text ? <small id={id} className="field-error" role="alert">{text}</small> : null;
}
