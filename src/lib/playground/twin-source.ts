import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shared module every twin imports; it must sit next to the twin a reader runs. */
export const TWIN_HELPER = 'ranks_twin.py';

/** Folder of the PyTorch twins, content/twins/: one NN-name.py per playground, named after it. */
export function twinDir(): string {
  return join(process.env.RANKS_CONTENT_DIR ?? join(process.cwd(), 'content'), 'twins');
}

export interface Twin {
  /** File name, e.g. "04-manual-ddp.py". */
  file: string;
  code: string;
  /** What the twin needs beyond a CPU and PyTorch 1.13, from its docstring ("Needs CUDA GPUs: …"), if anything. */
  requirement?: string;
}

/** The twin of a playground file ("04-manual-ddp.ts"), or undefined when it has none (inline code, an exercise check). */
export function readTwin(src: string | undefined): Twin | undefined {
  if (!src) return undefined;
  const file = src.replace(/^\.\/(playgrounds\/)?/, '').replace(/\.ts$/, '.py');
  const path = join(twinDir(), file);
  if (file.includes('/') || !existsSync(path)) return undefined;
  const code = readFileSync(path, 'utf8');
  const requirement = /^(Needs CUDA GPUs:.*|On CPUs \(Gloo\) it needs.*)$/m.exec(code)?.[1];
  return { file, code, ...(requirement ? { requirement } : {}) };
}

/** Every file a reader may download from /twins/: the twins and their helper. */
export function twinFiles(): string[] {
  return readdirSync(twinDir())
    .filter((f) => f.endsWith('.py'))
    .sort();
}

export interface LaunchCommand {
  id: string;
  label: string;
  text: string;
}

/** How to launch a twin: one machine, several machines by hand, and a SLURM batch script (8 GPUs over 2 nodes).
 * Flags as torch/distributed/run.py (torchrun) spells them; the underscore forms work from 1.13 to today. */
export function launchCommands(file: string, world: number): LaunchCommand[] {
  return [
    { id: 'one', label: 'One machine', text: `torchrun --nproc_per_node=${world} ${file}` },
    {
      id: 'nodes',
      label: 'Two machines, 4 GPUs each (run on both; MASTER_ADDR is the first machine)',
      text: `torchrun --nnodes=2 --nproc_per_node=4 --rdzv_id=ranks --rdzv_backend=c10d --rdzv_endpoint=$MASTER_ADDR:29500 ${file}`,
    },
    {
      id: 'slurm',
      label: 'SLURM: save as twin.sbatch, submit with sbatch twin.sbatch',
      text: [
        '#!/bin/bash',
        `#SBATCH --job-name=${file.replace(/\.py$/, '')}`,
        '#SBATCH --nodes=2',
        '#SBATCH --ntasks-per-node=1',
        '#SBATCH --gpus-per-node=4',
        '#SBATCH --time=00:10:00',
        '# One torchrun per node starts one process per GPU; the first node hosts the rendezvous.',
        'head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
        'srun torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=4 \\',
        '  --rdzv_id="$SLURM_JOB_ID" --rdzv_backend=c10d --rdzv_endpoint="$head:29500" \\',
        `  ${file}`,
      ].join('\n'),
    },
  ];
}
