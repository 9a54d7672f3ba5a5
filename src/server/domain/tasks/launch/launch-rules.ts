import type { LaunchRule } from './launch.ts';
import { templateVisible } from './rules/template-visible.ts';
import { templateEnabled } from './rules/template-enabled.ts';
import { callerRole } from './rules/caller-role.ts';
import { deployBuild } from './rules/deploy-build.ts';
import { surveyAnswers } from './rules/survey-answers.ts';
import { templateOverrides } from './rules/template-overrides.ts';
import { templateConcurrencyRule } from './rules/template-concurrency.ts';
import { templateRateLimitRule } from './rules/template-rate-limit.ts';

/**
 * Every rule of starting a task, in the order they are asked: when several would refuse, the
 * first one's text is the answer on every path. The concurrency rules (per-template limits,
 * named locks, rate limits, priorities) go here as rules with an `admit` step, which runs in
 * the queuing transaction; a limit that makes a task wait is the queue's claim's to keep.
 */
export const LAUNCH_RULES: readonly LaunchRule[] = [
  templateVisible,
  templateEnabled,
  callerRole,
  deployBuild,
  surveyAnswers,
  templateOverrides,
  templateRateLimitRule,
  templateConcurrencyRule,
];
