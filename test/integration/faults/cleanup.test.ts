import { matrixSuite } from './suite';

matrixSuite('cleanup');
