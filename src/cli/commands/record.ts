import { EXIT_FAILURE, type Command } from '../command.js';

// Placeholder until the record command lands; replaced by its implementation.
export const command: Command = {
  name: 'record',
  summary: 'record',
  usage: 'reckon record',
  flags: {},
  examples: [],
  async run(_args, io) {
    io.stderr.write('reckon record: not available in this build\n');
    return EXIT_FAILURE;
  },
};
