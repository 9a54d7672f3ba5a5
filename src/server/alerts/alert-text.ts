/**
 * User-controlled text (project and template names, display names, task messages, versions)
 * as each chat service must receive it to show it as text and never as markup.
 */

/**
 * For Slack's mrkdwn and Telegram's HTML mode: `&`, `<` and `>` as entities, so `<!channel>`,
 * `<https://x|click>` and `<b>` stay literal (Slack's documented escaping).
 * @example entityText('<!channel> & co') // '&lt;!channel&gt; &amp; co'
 */
export function entityText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The markdown metacharacters that work inside a line: emphasis, code, links and images, raw
 * HTML, entities, tables, strike-through. (Block markers such as `#` or `-` only act at the
 * start of a line, and values never start one: line breaks are flattened.)
 */
const MARKDOWN_INLINE = /[\\`*_[\]()!|<>~&]/g;

/**
 * For markdown (DingTalk, Gotify, Rocket.Chat): every inline markdown metacharacter backslash-escaped
 * and line breaks flattened, so `[x](https://evil)`, `**` or a raw `<a>` stay literal and one
 * value cannot start a block of its own.
 * @example markdownText('[click](https://evil.example)') // '\\[click\\]\\(https://evil.example\\)'
 */
export function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(MARKDOWN_INLINE, (c) => `\\${c}`);
}

/**
 * For Rocket.Chat, which turns `@all`, `@here` and `@name` in any text into mentions: a word
 * joiner (U+2060, invisible) after each `@`, so the text reads the same and notifies no one.
 * @example mentionFreeText('@all hands') // '@\u2060all hands'
 */
export function mentionFreeText(text: string): string {
  return text.replace(/@/g, '@\u2060');
}
