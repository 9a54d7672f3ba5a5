import { parseAnsi } from '../console/ansi.ts';

/** One log line with its ANSI colours as spans; text goes through React, so it is never HTML. */
export default function AnsiLine({ text }: { text: string }) {
  return <>{parseAnsi(text).map((s, i) => (s.classes ? <span key={i} className={s.classes}>{s.text}</span> : s.text))}</>;
}
