import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the decode command lands; replaced by its implementation.
export const command: Command = {
  name: 'decode',
  summary: 'decode',
  usage: 'reckon decode',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon decode: not available in this build\n');
    return EXIT_FAILURE;
  },
};
