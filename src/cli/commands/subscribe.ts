import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the subscribe command lands; replaced by its implementation.
export const command: Command = {
  name: 'subscribe',
  summary: 'subscribe',
  usage: 'reckon subscribe',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon subscribe: not available in this build\n');
    return EXIT_FAILURE;
  },
};
