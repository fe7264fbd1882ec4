import { matrixSuite } from './suite';

matrixSuite('get');
