import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the lockstep command lands; replaced by its implementation.
export const command: Command = {
  name: 'lockstep',
  summary: 'lockstep',
  usage: 'reckon lockstep',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon lockstep: not available in this build\n');
    return EXIT_FAILURE;
  },
};
