/** How the MCP endpoint reaches the runner API: the app's own `fetch`, handed down by app.ts. */
export type ApiDispatch = (request: Request) => Promise<Response>;

/** An answer of the API that is not a success, kept with its status and the API's own message. */
export class ApiRefusal extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** What an API call answered: the parsed JSON body and the headers (paging facts live there). */
export interface ApiAnswer<T> {
  body: T;
  headers: Headers;
}

type Query = Record<string, string | number | boolean | string[] | undefined | null>;

/**
 * Calls the runner API in-process with the assistant's own bearer token, so every tool goes
 * through the same routes as any other client: the same authentication, project scope,
 * permission checks, validation, launch rules, audit rows and errors. Nothing is re-implemented.
 */
export class ApiCaller {
  readonly #dispatch: ApiDispatch;
  readonly #origin: string;
  readonly #headers: Record<string, string>;

  constructor(dispatch: ApiDispatch, origin: string, headers: Record<string, string>) {
    this.#dispatch = dispatch;
    this.#origin = origin;
    this.#headers = headers;
  }

  get<T>(path: string, query: Query = {}): Promise<ApiAnswer<T>> {
    return this.#send<T>('GET', path + queryString(query));
  }

  post<T>(path: string, body: unknown = {}): Promise<ApiAnswer<T>> {
    return this.#send<T>('POST', path, body);
  }

  async #send<T>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { ...this.#headers, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.#dispatch(new Request(new URL(`/api${path}`, this.#origin), {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    }));
    const text = await response.text();
    if (!response.ok) throw new ApiRefusal(response.status, refusalMessage(response.status, text));
    return { body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
  }
}

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const STATUS_WORDS: Record<number, string> = {
  400: 'bad request',
  401: 'not signed in',
  403: "this token's user may not do that",
  404: "not found (or not visible to this token's user)",
  409: 'conflict',
  429: 'too many requests',
};

/** The API's `{"error": "..."}` when it gave one, after words for the status. */
function refusalMessage(status: number, text: string): string {
  let detail = '';
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed?.error === 'string') detail = parsed.error;
  } catch {
    detail = '';
  }
  const words = STATUS_WORDS[status] ?? `status ${status}`;
  return detail ? `${words}: ${detail}` : words;
}
