import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the experiment command lands; replaced by its implementation.
export const command: Command = {
  name: 'experiment',
  summary: 'experiment',
  usage: 'reckon experiment',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon experiment: not available in this build\n');
    return EXIT_FAILURE;
  },
};
