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
  type CollectivePrediction,
} from '../simulation/collective-model.ts';
import { clusterShape, describeShape, type ClusterShape } from '../simulation/cluster-shape.ts';
import { NCCL_VERSION, PROTOCOLS, type Protocol } from '../simulation/nccl-constants.ts';
import { CLUSTER_PRESETS, clusterPreset, PRESET_IDS, withNetwork } from '../simulation/presets.ts';

export const PRESETS_USAGE = 'usage: npm run ranks -- presets';
export const PREDICT_USAGE = [
  `usage: npm run ranks -- predict ${COLLECTIVES.join('|')} --cluster <preset> [--nodes N] [--gpus-per-node G]`,
  `         (--bytes S | --sweep A:B) [--algo ${ALGORITHMS.join('|')}] [--proto ${PROTOCOLS.join('|')}]`,
  '         [--nics-per-node K] [--nic-gbps R]',
  "  S, A, B are nccl-tests' sizes: bytes, or with a K, M or G suffix (powers of 1024, as nccl-tests reads -b/-e);",
  '  --sweep A:B doubles the size from A to B (nccl-tests -b A -e B -f 2).',
  '  --algo and --proto force an algorithm or protocol, as NCCL_ALGO and NCCL_PROTO do.',
  "  --nics-per-node and --nic-gbps replace the preset's NIC count and per-NIC line rate (Gb/s).",
  `  presets: ${PRESET_IDS.join(', ')} (npm run ranks -- presets describes them)`,
  "  prints nccl-tests' columns (size, count, type, redop, root, time in us, algbw and busbw in GB/s)",
  '  and the algorithm, protocol and channels the model chose, for the simulated cluster.',
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
  /** One size, or every size of the sweep. */
  sizes: number[];
  algorithm?: Algorithm;
  protocol?: Protocol;
}

const PREDICT_FLAGS = [
  '--cluster',
  '--nodes',
  '--gpus-per-node',
  '--bytes',
  '--sweep',
  '--algo',
  '--proto',
  '--nics-per-node',
  '--nic-gbps',
];

/** `A:B`: nccl-tests' -b A -e B -f 2, every power-of-two multiple of A up to B. */
export function parseSweep(text: string): number[] {
  const parts = text.split(':');
  if (parts.length !== 2) throw new UsageError(`--sweep must be A:B (e.g. 8:8G), got "${text}"`);
  const [from, to] = parts.map(parseSize) as [number, number];
  if (from < 1 || to < from) throw new UsageError(`--sweep needs 1 ≤ A ≤ B, got "${text}"`);
  const sizes: number[] = [];
  for (let s = from; s <= to; s *= 2) sizes.push(s);
  return sizes;
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
    if (!PREDICT_FLAGS.includes(flag)) throw new UsageError(`unknown option ${flag}`);
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
  const sweep = flags.get('--sweep');
  if (size !== undefined && sweep !== undefined)
    throw new UsageError('give --bytes or --sweep, not both');
  if (size === undefined && sweep === undefined)
    throw new UsageError('--bytes is required (or --sweep A:B)');
  const nics = flags.has('--nics-per-node')
    ? parseCount('--nics-per-node', flags.get('--nics-per-node')!)
    : undefined;
  const gbpsText = flags.get('--nic-gbps');
  const gbps = gbpsText === undefined ? undefined : Number(gbpsText);
  if (gbps !== undefined && (!/^\d+(\.\d+)?$/.test(gbpsText!) || !(gbps > 0)))
    throw new UsageError(`--nic-gbps must be a number of Gb/s > 0, got "${gbpsText}"`);
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
    shape = clusterShape(
      withNetwork(clusterPreset(cluster), { nicsPerNode: nics, nicGbps: gbps }),
      nodes,
      gpus,
    );
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    collective: collective as Collective,
    shape,
    sizes: size !== undefined ? [parseSize(size)] : parseSweep(sweep!),
    algorithm: algorithm as Algorithm | undefined,
    protocol: protocol as Protocol | undefined,
  };
}

/** nccl-tests' element count: whole buffer for all-reduce and broadcast, one rank's part for the others. */
function elementCount(collective: Collective, bytes: number, ranks: number): number {
  const elements = Math.floor(bytes / 4);
  return collective === 'all-gather' || collective === 'reduce-scatter'
    ? Math.floor(elements / ranks)
    : elements;
}

/** nccl-tests' header, with the model's three extra columns. */
export function predictionHeader(collective: Collective, shape: ClusterShape): string[] {
  return [
    `# ranks predict: ${collective} on ${describeShape(shape)} (simulated cluster; the NCCL ${NCCL_VERSION} cost model, not a measurement)`,
    '#',
    '#       size         count      type   redop    root     time   algbw   busbw  algo       proto   channels',
    '#        (B)    (elements)                               (us)  (GB/s)  (GB/s)',
  ];
}

/** One line in nccl-tests' columns (out-of-place), then the algorithm, protocol and channels chosen. */
export function formatPrediction(p: CollectivePrediction): string {
  const collective = p.collective as Collective;
  const redop = collective === 'all-reduce' || collective === 'reduce-scatter' ? 'sum' : 'none';
  const root = collective === 'broadcast' ? 0 : -1;
  return [
    String(p.bytes).padStart(12),
    String(elementCount(collective, p.bytes, p.ranks)).padStart(13),
    'float'.padStart(9),
    redop.padStart(7),
    String(root).padStart(7),
    (p.seconds * 1e6).toFixed(2).padStart(8),
    p.algbw.toFixed(2).padStart(7),
    p.busbw.toFixed(2).padStart(7),
    ` ${p.algorithm.padEnd(10)}`,
    p.protocol.padEnd(7),
    String(p.channels).padStart(8),
  ].join(' ');
}

export function predictCommand(args: readonly string[], io: CommandIO): number {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(PREDICT_USAGE);
    return 0;
  }
  let parsed: PredictArgs;
  try {
    parsed = parsePredict(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${e.message}\n${PREDICT_USAGE}`);
    return 2;
  }
  try {
    const lines = parsed.sizes.map((bytes) =>
      formatPrediction(
        predictCollective(parsed.shape, parsed.collective, bytes, {
          algorithm: parsed.algorithm,
          protocol: parsed.protocol,
        }),
      ),
    );
    for (const l of [...predictionHeader(parsed.collective, parsed.shape), ...lines]) io.out(l);
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
