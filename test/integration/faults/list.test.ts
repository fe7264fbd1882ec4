import { matrixSuite } from './suite';

matrixSuite('list');
