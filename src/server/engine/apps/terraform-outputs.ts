import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { MAX_OUTPUT_VALUE_BYTES, MAX_OUTPUTS, OUTPUT_NAME, type NotCapturedOutput } from '../../domain/workflows/workflow-outputs.ts';

/** An output Terraform had that the task's outputs do not hold, and why. */
export type NotCaptured = NotCapturedOutput;

/**
 * Terraform's `output -json` (`{name: {sensitive, type, value}}`) as workflow outputs: a
 * sensitive output, a name outputs cannot have, a value over 32 KB or one past the hundredth is
 * not captured (listed with the reason, never failing the task). A value the task wrote to the
 * outputs file itself wins over a captured one of the same name.
 * @example captureTerraformOutputs('{"vpc":{"sensitive":false,"value":"vpc-1"}}', file)
 */
export function captureTerraformOutputs(json: string, outputsFile: string): NotCaptured[] {
  let parsed: Record<string, { sensitive?: boolean; value?: unknown }> = {};
  try {
    const value = JSON.parse(json || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value;
  } catch {
    return [{ name: '*', reason: 'terraform output -json did not answer JSON' }];
  }
  const captured: Record<string, unknown> = {};
  const skipped: NotCaptured[] = [];
  for (const [name, output] of Object.entries(parsed)) {
    const reason = output?.sensitive ? 'sensitive'
      : !OUTPUT_NAME.test(name) ? 'not a valid output name'
        : Buffer.byteLength(JSON.stringify(output?.value ?? null)) > MAX_OUTPUT_VALUE_BYTES ? 'larger than 32 KB'
          : Object.keys(captured).length >= MAX_OUTPUTS ? `more than ${MAX_OUTPUTS} outputs` : null;
    if (reason) skipped.push({ name, reason });
    else captured[name] = output?.value ?? null;
  }
  let own: Record<string, unknown> = {};
  const text = existsSync(outputsFile) ? readFileSync(outputsFile, 'utf8') : '';
  if (text.trim()) {
    try {
      own = JSON.parse(text);
    } catch {
      // the task's own file is judged (and the task failed) when the outputs are read
      return skipped;
    }
  }
  writeFileSync(outputsFile, JSON.stringify({ ...captured, ...own }));
  writeFileSync(`${outputsFile}.not-captured`, JSON.stringify(skipped));
  return skipped;
}
