// What the wall board page (`/board`) reads from its address and asks the runner API: a board
// token's board (`?token=`, nothing else counts and no session is used), or the signed-in
// user's choice of projects (`projects=1,2` or repeated), tiles per template or view (`by=`)
// and one view's templates (`view=`). The API validates every value; a bad one is its 400.
import type { TFunction } from 'i18next';
import type { AstroGlobal } from 'astro';
import { forwardedHeaders, readErrorText } from './runner-api.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;
import { messagesFor } from './i18n.ts';
import { durationUnits } from '../components/cell-markup.ts';
import type { BoardDataShape, BoardTexts } from './board-tiles.ts';

export interface BoardRequest {
  token: string | null;
  /** the `/api/board` address the page and its script read */
  api: string;
  /** the `/api/ws` address the script listens on */
  ws: string;
  /** the address's own choices, to show in the chooser */
  projects: string[];
  by: string;
}

/** Reads the board's address; the values go to the API as they are, which checks them. */
export function boardRequest(url: URL): BoardRequest {
  const token = url.searchParams.get('token');
  const query = new URLSearchParams();
  if (token !== null) {
    query.set('token', token);
    return { token, api: `/api/board?${query}`, ws: `/api/ws?${query}`, projects: [], by: '' };
  }
  // `projects=1,2` or one `projects=` per chosen project (the chooser's checkboxes)
  const projects = url.searchParams.getAll('projects').flatMap((v) => v.split(','));
  if (url.searchParams.has('projects')) query.set('project_ids', projects.join(','));
  const by = url.searchParams.get('by');
  if (by !== null) query.set('by', by);
  const view = url.searchParams.get('view');
  if (view !== null) query.set('view_id', view);
  const search = query.size ? `?${query}` : '';
  return { token: null, api: `/api/board${search}`, ws: '/api/ws', projects, by: by ?? 'template' };
}

/** The board's data, or the API's refusal (status and words) to show instead. */
export async function loadBoardData(astro: AstroLike, request: BoardRequest): Promise<{ data: BoardDataShape } | { status: number; error: string }> {
  // a board token stands alone: the browser's session is not sent with it
  const headers = request.token !== null ? {} : forwardedHeaders(astro.request);
  const res = await astro.locals.runnerApi(request.api, { headers });
  if (res.ok) return { data: (await res.json()) as BoardDataShape };
  if (res.status >= 500) throw new Error(await readErrorText(res));
  return { status: res.status, error: await readErrorText(res) };
}

/** The words tiles show, for the server render and (as JSON) the browser script. */
export function boardTexts(t: TFunction, lang: string): BoardTexts {
  const board = messagesFor(lang, 'board');
  const task = messagesFor(lang, 'task');
  return {
    status: messagesFor(lang, 'status'), never: board.never ?? '', streak: board.streak ?? '', queued: board.queued ?? '', by: board.by ?? '',
    starter: { integration: task.integration ?? '', schedule: task.schedule ?? '', autorun: task.autorun ?? '' },
    left: board.left ?? '', overdue: board.overdue ?? '', empty: board.empty ?? '', units: durationUnits(t),
  };
}
