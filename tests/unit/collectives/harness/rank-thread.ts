// One simulated rank in a worker_thread: joins the shared world, then runs scenarios the test posts.
import { parentPort, workerData } from 'node:worker_threads';
import { RankCollectives } from '../../../../playground/collectives/rank-collectives.ts';
import { joinWorld } from '../../../../playground/collectives/create-dist.ts';
import type { Dist } from '../../../../playground/collectives/dist-api.ts';
import type { SharedWorld } from '../../../../playground/collectives/shared-world.ts';
import type { TensorOutputPool } from '../../../../playground/collectives/tensor-output-pool.ts';
import type {
  SimulatedClusterOptions,
  TraceEvent,
} from '../../../../playground/contract/protocol.ts';
import { resolveCluster } from '../../../../playground/simulation/cluster-options.ts';
import { scenarios, type ScenarioContext } from './scenarios.ts';

const { world, rank, withTensors, backend, simulation } = workerData as {
  world: SharedWorld;
  rank: number;
  withTensors: boolean;
  backend: 'cpu' | 'wasm';
  /** Virtual time on this simulated cluster (a tensor world only). */
  simulation?: SimulatedClusterOptions;
};
const traces: TraceEvent[] = [];
const notices: string[] = [];
let dist: Dist | null = null;
let raw: RankCollectives;
let outputs: TensorOutputPool | undefined;
if (withTensors) {
  const tf = await import('@tensorflow/tfjs');
  if (backend === 'wasm') {
    await import('@tensorflow/tfjs-backend-wasm');
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  }
  await tf.setBackend(backend);
  const joined = await joinWorld(world, rank, {
    tf,
    backend,
    onTrace: (e) => traces.push(e),
    onNotice: (text) => notices.push(text),
    ...(simulation
      ? {
          simulation: {
            cluster: resolveCluster(simulation),
            sinks: { trace() {}, step() {}, notice: (text: string) => notices.push(text) },
          },
        }
      : {}),
  });
  dist = joined.dist;
  raw = joined.comm;
  outputs = joined.outputs;
} else {
  raw = new RankCollectives(world, rank, {
    now: () => performance.now(),
    onTrace: (e) => traces.push(e),
    onNotice: (text) => notices.push(text),
  });
}

parentPort!.on(
  'message',
  async (msg: { id: number; scenario: keyof typeof scenarios; args: unknown }) => {
    traces.length = 0;
    notices.length = 0;
    const ctx: ScenarioContext = {
      rank,
      worldSize: world.worldSize,
      raw,
      dist,
      outputs,
      traces,
      notices,
    };
    try {
      const value = await (
        scenarios[msg.scenario] as (c: ScenarioContext, a: unknown) => Promise<unknown>
      )(ctx, msg.args);
      parentPort!.postMessage({ id: msg.id, ok: true, value });
    } catch (err) {
      parentPort!.postMessage({
        id: msg.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  },
);
parentPort!.postMessage({ ready: true });
