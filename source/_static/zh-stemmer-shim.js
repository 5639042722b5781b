// Sphinx 9.0.4's Chinese search asks for `ChineseStemmer` but ships only the English one
// (sphinx-doc/sphinx#14229, fixed upstream by #14416). Chinese words are segmented by jieba at
// build time; Latin words are stemmed in English, as Sphinx intends.
function ChineseStemmer() { return new EnglishStemmer(); }
