// The icons the console uses, by the role they play. Paths come from Material Design Icons (the
// set Semaphore users know); naming them here keeps every other @mdi/js path out of the build.
import { STATUS_ICONS } from './status-icons.ts';
import {
  mdiAccountGroup, mdiBackupRestore, mdiCalendarClock, mdiChartLine,
  mdiChevronRight, mdiClose, mdiCog, mdiConnection, mdiDelete, mdiDownload, mdiExitToApp,
  mdiFileDocumentMultipleOutline, mdiFormatListBulleted, mdiFullscreen, mdiFullscreenExit, mdiHistory,
  mdiInboxOutline, mdiKeyVariant, mdiMenu, mdiMonitorDashboard, mdiPlus,
  mdiServerNetwork, mdiSourceBranch, mdiThemeLightDark, mdiTranslate, mdiTune, mdiViewDashboard,
  mdiWeatherNight, mdiWhiteBalanceSunny, mdiAccountCircle, mdiRefresh, mdiPlayBoxMultiple,
} from '@mdi/js';
import { mdiBellRingOutline, mdiLanConnect, mdiPin, mdiPinOff, mdiSitemapOutline, mdiViewColumnOutline } from '@mdi/js';

export const ICONS = {
  ...STATUS_ICONS,
  dashboard: mdiViewDashboard, history: mdiHistory, templates: mdiFileDocumentMultipleOutline, schedule: mdiCalendarClock,
  inventory: mdiServerNetwork, environment: mdiTune, keys: mdiKeyVariant, repositories: mdiSourceBranch,
  integrations: mdiConnection, team: mdiAccountGroup, add: mdiPlus, restore: mdiBackupRestore, language: mdiTranslate,
  dark: mdiWeatherNight, light: mdiWhiteBalanceSunny, system: mdiThemeLightDark, close: mdiClose,
  fullscreen: mdiFullscreen, exitFullscreen: mdiFullscreenExit, menu: mdiMenu, delete: mdiDelete, download: mdiDownload,
  kiosk: mdiMonitorDashboard, exit: mdiExitToApp, chevron: mdiChevronRight, empty: mdiInboxOutline, stats: mdiChartLine,
  activity: mdiFormatListBulleted, settings: mdiCog, user: mdiAccountCircle, refresh: mdiRefresh, tasks: mdiPlayBoxMultiple,
  runners: mdiLanConnect, columns: mdiViewColumnOutline, workflows: mdiSitemapOutline,
  pin: mdiPin, unpin: mdiPinOff, alert: mdiBellRingOutline,
} as const;

export type IconName = keyof typeof ICONS;
