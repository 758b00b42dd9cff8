// One entry and the HTML plugin's page: webpack 5 finds the package's workers and .wasm
// files itself.
import HtmlWebpackPlugin from 'html-webpack-plugin';

export default { entry: './main.js', plugins: [new HtmlWebpackPlugin()] };
