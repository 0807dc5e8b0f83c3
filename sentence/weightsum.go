package sentence

// weightSum is the SHA-256 of model/use-lite.bin. It names the weight
// cache file, so a binary with other weights never reads this one's
// cache; hashing the 7 MB file in every process would cost more than the
// cache saves. TestWeightSumMatchesFile keeps it in step: regenerating
// the weights (`go generate ./sentence`) means updating it.
const weightSum = "68741a0b42b598ffb8ed1b7c11a3bdcb8e41764ab2ab52ef530a92f5666a42b3"
