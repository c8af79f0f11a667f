import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the demo command lands; replaced by its implementation.
export const command: Command = {
  name: 'demo',
  summary: 'demo',
  usage: 'reckon demo',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon demo: not available in this build\n');
    return EXIT_FAILURE;
  },
};
