import {
  BACKEND_CHOICES,
  checkWorldSize,
  MAX_WORLD_SIZE,
  type BackendChoice,
  type SimulatedClusterOptions,
} from '../contract/protocol.ts';
import { PRESET_IDS, resolveCluster } from '../simulation/index.ts';
import {
  checkFaults,
  FAULT_USAGE,
  parseFaultFlag,
  type ClusterFaults,
} from './cluster-fault-args.ts';

/** Node's timers hold a signed 32-bit millisecond count; a longer delay fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** The contract's backend choices less WebGPU, which Node does not have. */
const BACKENDS = BACKEND_CHOICES.filter((b) => b !== 'webgpu');

export const USAGE = `usage: npm run ranks -- run <file.ts> [--world N] [--backend ${BACKENDS.join('|')}] [--timeout ms]
                          [--cluster <preset> [--nodes N] [--gpus-per-node G]
                           [--slowdown R:F] [--jitter A[:seed]] [--dead-rank R:S]]
       npm run ranks -- twin <playground.ts> [--helper]     print a playground's PyTorch twin
       npm run ranks -- presets                             list the simulated GPU clusters
       npm run ranks -- predict <collective> --cluster <preset> [--nodes N] [--gpus-per-node G]
                          (--bytes S | --sweep A:B) [--algo ring|tree|nvls|nvls-tree]
                          [--proto LL|LL128|Simple] [--nics-per-node K] [--nic-gbps R]
                                                            one collective's modelled time, nccl-tests' columns

  --world N      number of ranks, 1 to ${MAX_WORLD_SIZE} (default 4)
  --backend B    tfjs backend: ${BACKENDS.join(', ')} (default cpu; Node has no WebGPU)
  --timeout ms   wall-clock limit for the run, 1 to ${MAX_TIMEOUT_MS} ms (default 60000)
  --trace F      with --cluster: write the run's virtual trace to F as Chrome trace-event JSON, which
                 ui.perfetto.dev opens (one row per rank's compute and comm stream); the ranks may
                 write that one file.
  --cluster P    run in virtual time on a simulated cluster (${PRESET_IDS.join(', ')}); the world is
                 nodes × GPUs per node (the preset's defaults unless given), and the run prints its
                 virtual step times. Without it a run is real time on this machine.
${FAULT_USAGE}

Safety: the program runs as you, on your machine. Ranks start under Node's permission model:
they may read only this project's files and the program itself, and may not write files, start
processes, threads or workers, load native add-ons, signal other processes (process.kill) or read
your environment variables (process.env is empty). What a program CAN still do: make network
requests (Node 22's permission model does not cover the network) and send anything it can read
there, use CPU and memory until --timeout, and print. Printed text has control characters shown as
visible symbols (ESC as \u241b) and every line carries its rank's prefix; writing to a file
descriptor (fs.writeSync(1, …), a stream or socket on fd 1) is refused, so nothing reaches the
terminal around that. Run only programs you would run yourself.`;

export interface CliArgs {
  file: string;
  /** Where to write the virtual trace (Chrome trace-event JSON, trace-file.ts); needs `cluster`. */
  trace?: string;
  world: number;
  backend: BackendChoice;
  timeoutMs: number;
  cluster?: SimulatedClusterOptions;
}

/** A command line that cannot run: the message says why, and the CLI prints usage and exits 2. */
export class UsageError extends Error {}

const integerIn = (flag: string, value: string, min: number, max: number): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got '${value}'`);
  }
  return n;
};

/** Parses `run <file> [--world N] [--backend B] [--timeout ms]`; returns 'help' for -h/--help. */
export function parseCliArgs(argv: string[]): CliArgs | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  const [command, file, ...rest] = argv;
  if (command !== 'run')
    throw new UsageError(
      command === undefined ? 'no command given' : `unknown command '${command}'`,
    );
  if (!file || file.startsWith('--')) throw new UsageError('run needs a program file');
  const args: CliArgs = { file, world: 4, backend: 'cpu', timeoutMs: 60_000 };
  let preset: string | undefined;
  let nodes: number | undefined;
  let gpusPerNode: number | undefined;
  let worldGiven = false;
  const faults: ClusterFaults = {};
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i]!, rest[i + 1]];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    if (flag === '--trace') args.trace = value;
    else if (flag === '--world') {
      args.world = integerIn(flag, value, 1, MAX_WORLD_SIZE);
      worldGiven = true;
    } else if (flag === '--cluster') preset = value;
    else if (flag === '--nodes') nodes = integerIn(flag, value, 1, Number.MAX_SAFE_INTEGER);
    else if (flag === '--gpus-per-node')
      gpusPerNode = integerIn(flag, value, 1, Number.MAX_SAFE_INTEGER);
    else if (flag === '--timeout') args.timeoutMs = integerIn(flag, value, 1, MAX_TIMEOUT_MS);
    else if (flag === '--backend') {
      if (!(BACKENDS as readonly string[]).includes(value))
        throw new UsageError(`--backend must be one of ${BACKENDS.join(', ')}, got '${value}'`);
      args.backend = value as BackendChoice;
    } else if (!faultFlag(flag, value, faults)) throw new UsageError(`unknown option '${flag}'`);
  }
  if (args.trace !== undefined && preset === undefined)
    throw new UsageError(
      '--trace needs --cluster <preset>: only a simulated run has a virtual trace',
    );
  if (preset === undefined) {
    if (nodes !== undefined || gpusPerNode !== undefined)
      throw new UsageError('--nodes and --gpus-per-node need --cluster <preset>');
    if (Object.keys(faults).length)
      throw new UsageError('--slowdown, --jitter and --dead-rank need --cluster <preset>');
    return args;
  }
  let shape;
  try {
    shape = resolveCluster({ preset, nodes, gpusPerNode }).shape;
  } catch (e) {
    throw new UsageError(`--cluster: ${e instanceof Error ? e.message : String(e)}`);
  }
  const world = shape.nodes * shape.gpusPerNode;
  try {
    checkWorldSize(world, `--cluster: ${shape.nodes} × ${shape.gpusPerNode} GPUs, the world,`);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (worldGiven && args.world !== world)
    throw new UsageError(
      `--world ${args.world} does not match ${shape.nodes} × ${shape.gpusPerNode} GPUs`,
    );
  args.world = world;
  args.cluster = { preset: shape.preset.id, nodes: shape.nodes, gpusPerNode: shape.gpusPerNode };
  try {
    Object.assign(args.cluster, checkFaults(faults, world));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return args;
}

/** The page's straggler, jitter and dead-rank options (cluster-fault-args.ts), as usage errors. */
function faultFlag(flag: string, value: string, into: ClusterFaults): boolean {
  try {
    return parseFaultFlag(flag, value, into);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
