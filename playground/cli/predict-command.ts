/**
 * `npm run ranks -- presets` and `npm run ranks -- predict <collective> …`: the cluster model from a
 * terminal, printed in nccl-tests' columns so it can be held against a published table.
 */
import {
  ALGORITHMS,
  COLLECTIVES,
  predictCollective,
  type Algorithm,
  type Collective,
} from '../simulation/collective-model.ts';
import { clusterShape, type ClusterShape } from '../simulation/cluster-shape.ts';
import { PROTOCOLS, type Protocol } from '../simulation/nccl-constants.ts';
import { CLUSTER_PRESETS, PRESET_IDS } from '../simulation/presets.ts';

export const PRESETS_USAGE = 'usage: npm run ranks -- presets';
export const PREDICT_USAGE = [
  `usage: npm run ranks -- predict ${COLLECTIVES.join('|')} --cluster <preset> [--nodes N] [--gpus-per-node G] --bytes S`,
  `         [--algo ${ALGORITHMS.join('|')}] [--proto ${PROTOCOLS.join('|')}]`,
  "  S is nccl-tests' size: bytes, or with a K, M or G suffix (powers of 1024, as nccl-tests reads -b/-e).",
  `  presets: ${PRESET_IDS.join(', ')} (npm run ranks -- presets describes them)`,
  '  prints: size (B)  time (us)  algbw (GB/s)  busbw (GB/s)',
].join('\n');

export interface CommandIO {
  out: (line: string) => void;
  err: (line: string) => void;
}

class UsageError extends Error {}

/** One `id: description` a line. */
export function presetsCommand(args: readonly string[], io: CommandIO): number {
  if (args.length > 0) {
    io.err(`presets takes no arguments, got ${args.join(' ')}\n${PRESETS_USAGE}`);
    return 2;
  }
  for (const p of CLUSTER_PRESETS) io.out(`${p.id}: ${p.description}`);
  return 0;
}

/** nccl-tests' size syntax: an integer, optionally with K, M or G (×1024ⁿ). */
export function parseSize(text: string): number {
  const m = /^(\d+)([KMG]?)$/i.exec(text.trim());
  if (!m)
    throw new UsageError(
      `--bytes must be a whole number of bytes (optionally with K, M or G), got "${text}"`,
    );
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[
    m[2]!.toUpperCase() as '' | 'K' | 'M' | 'G'
  ];
  const bytes = Number(m[1]) * scale;
  if (!Number.isSafeInteger(bytes)) throw new UsageError(`--bytes ${text} is too large`);
  return bytes;
}

function parseCount(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`${flag} must be a whole number ≥ 1, got "${text}"`);
  return Number(text);
}

interface PredictArgs {
  collective: Collective;
  shape: ClusterShape;
  bytes: number;
  algorithm?: Algorithm;
  protocol?: Protocol;
}

function parsePredict(args: readonly string[]): PredictArgs {
  const [collective, ...rest] = args;
  if (!collective) throw new UsageError('predict needs a collective');
  if (!(COLLECTIVES as readonly string[]).includes(collective))
    throw new UsageError(
      `unknown collective "${collective}"; expected one of ${COLLECTIVES.join(', ')}`,
    );
  const flags = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i]!, rest[i + 1]];
    if (!['--cluster', '--nodes', '--gpus-per-node', '--bytes', '--algo', '--proto'].includes(flag))
      throw new UsageError(`unknown option ${flag}`);
    if (value === undefined || value.startsWith('--'))
      throw new UsageError(`${flag} needs a value`);
    if (flags.has(flag)) throw new UsageError(`${flag} given twice`);
    flags.set(flag, value);
  }
  const cluster = flags.get('--cluster');
  if (!cluster) throw new UsageError('--cluster is required');
  if (!(PRESET_IDS as readonly string[]).includes(cluster))
    throw new UsageError(`unknown cluster preset "${cluster}"; known: ${PRESET_IDS.join(', ')}`);
  const size = flags.get('--bytes');
  if (size === undefined) throw new UsageError('--bytes is required');
  const nodes = flags.has('--nodes') ? parseCount('--nodes', flags.get('--nodes')!) : undefined;
  const gpus = flags.has('--gpus-per-node')
    ? parseCount('--gpus-per-node', flags.get('--gpus-per-node')!)
    : undefined;
  const algorithm = flags.get('--algo');
  if (algorithm !== undefined && !(ALGORITHMS as readonly string[]).includes(algorithm))
    throw new UsageError(`--algo must be one of ${ALGORITHMS.join(', ')}, got "${algorithm}"`);
  const protocol = flags.get('--proto');
  if (protocol !== undefined && !(PROTOCOLS as readonly string[]).includes(protocol))
    throw new UsageError(`--proto must be one of ${PROTOCOLS.join(', ')}, got "${protocol}"`);
  let shape: ClusterShape;
  try {
    shape = clusterShape(cluster, nodes, gpus);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    collective: collective as Collective,
    shape,
    bytes: parseSize(size),
    algorithm: algorithm as Algorithm | undefined,
    protocol: protocol as Protocol | undefined,
  };
}

/** One line, nccl-tests' columns: size (B), time (us), algbw (GB/s), busbw (GB/s). */
export function formatPrediction(
  bytes: number,
  seconds: number,
  algbw: number,
  busbw: number,
): string {
  return `${String(bytes).padStart(12)}  ${(seconds * 1e6).toFixed(2).padStart(10)}  ${algbw.toFixed(2).padStart(7)}  ${busbw.toFixed(2).padStart(7)}`;
}

export function predictCommand(args: readonly string[], io: CommandIO): number {
  let parsed: PredictArgs;
  try {
    parsed = parsePredict(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${e.message}\n${PREDICT_USAGE}`);
    return 2;
  }
  try {
    const p = predictCollective(parsed.shape, parsed.collective, parsed.bytes, {
      algorithm: parsed.algorithm,
      protocol: parsed.protocol,
    });
    io.out(formatPrediction(p.bytes, p.seconds, p.algbw, p.busbw));
    return 0;
  } catch (e) {
    io.err((e as Error).message);
    return 2;
  }
}

/** The subcommands this file owns, for the dispatcher in ranks.ts. */
export const MODEL_COMMANDS: Readonly<
  Record<string, (args: readonly string[], io: CommandIO) => number>
> = {
  presets: presetsCommand,
  predict: predictCommand,
};
