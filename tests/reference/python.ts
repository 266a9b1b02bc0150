import { spawnSync } from 'node:child_process';

/** Debian's python3-torch (the `python3` on PATH may be another Python without torch). */
export const PYTHON = '/usr/bin/python3';

/** Whether PyTorch tests can run here: torch.distributed imports under PYTHON (Debian python3-torch has it). */
export const hasTorch =
  spawnSync(PYTHON, ['-c', 'import torch.distributed'], { stdio: 'ignore' }).status === 0;
